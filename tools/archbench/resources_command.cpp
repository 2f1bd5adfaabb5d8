// archbench resources: the ctest resource spec file for this host's visible GPUs, so the GPU
// suite can run one test per GPU in parallel: `ctest -L gpu --resource-spec-file F -j <GPUs>`.
// No GPU: the file lists none and the exit code is 3 (run ctest without the spec file then).
#include <fmt/format.h>

#include <iostream>

#include "harness/device/environment.hpp"
#include "harness/util/ctest_resources.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/json_output.hpp"

namespace archbench::cli {
namespace {

// archbench resources: ctest's resource spec file from the visible GPUs.
struct ResourcesOptions {
  std::string json_path;
  int slots = 1;              // GPU tests per GPU at once
  std::optional<int> count;   // declare this many GPUs instead of probing (a spec for another host)
};

int resources_command(const ResourcesOptions& o) {
  const TextToStderr text_to_stderr(is_stdout(o.json_path));
  size_t count = 0;
  bool usable = true;
  if (o.count) {
    count = static_cast<size_t>(*o.count);
  } else {
    const Environment env = probe_environment();
    usable = env.usable();
    count = usable ? env.devices.size() : 0;
    if (!usable) {
      std::cerr << "archbench resources: no usable CUDA device: "
                << (env.device_count_error != 0 ? env.device_count_error_text : std::string("the driver reports 0 devices"))
                << "; writing a spec with no GPUs\n";
    }
  }
  if (!write_or_say("resources", o.json_path, ctest_resource_spec(count, o.slots).dump(2) + "\n")) return kInternal;
  std::cout << fmt::format("wrote {}: {} GPU(s), {} slot(s) each\n", is_stdout(o.json_path) ? "the spec to stdout" : o.json_path,
                           count, o.slots);
  return usable ? kOk : kNoDevice;
}

}  // namespace

void add_resources_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(app, commands, "resources",
      "write ctest's resource spec file for the visible GPUs (ctest -L gpu --resource-spec-file FILE -j <GPUs>)", resources_command);
  value_name(cmd->add_option("--json", o->json_path, "the spec file to write; - for stdout"), "FILE")->required();
  value_name(cmd->add_option("--slots", o->slots, "GPU tests that may share one GPU at once (default 1)"), "N")
      ->check(CLI::Range(1, 64));
  value_name(cmd->add_option("--count", o->count, "declare this many GPUs instead of probing the visible ones"), "N")
      ->check(CLI::Range(0, 1024));
}

}  // namespace archbench::cli
