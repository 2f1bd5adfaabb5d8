// archbench scan [PATH...]: will this Python environment, wheel, container image or folder run
// on these GPUs and drivers? Per package and per device, the verdict, the cause and the fix
// (harness/stack reads and judges; this file wires options, devices, progress and outputs).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <utility>

#include "harness/device/environment.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/stack/judgement.hpp"
#include "harness/stack/variant_family.hpp"
#include "harness/stack/python_env.hpp"
#include "harness/stack/readers.hpp"
#include "harness/stack/scan_report.hpp"
#include "harness/util/atomic_file.hpp"
#include "harness/util/text_wrap.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/json_output.hpp"
#include "tools/archbench/shared_options.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/fleet.hpp"
#include "tools/archbench/selection.hpp"

namespace archbench::cli {
namespace {

// archbench scan: the packages of an environment, wheel, image or folder, per device.
struct ScanOptions {
  std::vector<std::string> paths;  // empty: the environment of `python`
  std::string python = "python3";
  std::vector<std::string> devices;  // empty (and no fleet): the GPUs present
  std::string driver;
  std::string fleet_path;
  bool files = false;    // every file of every package
  bool kernels = false;  // name kernels (decompresses every image) and judge kernel by kernel
  std::string json_path;
  std::string markdown_path;
  unsigned threads = 0;
  bool quiet = false;
};

// The GPUs present, each with this machine's driver.
std::vector<arch::DeviceSpec> present_devices(std::string& why_none) {
  const Environment env = probe_environment();
  std::vector<arch::DeviceSpec> out;
  if (!env.usable()) {
    why_none = env.device_count_error != 0 ? env.device_count_error_text : "the driver reports 0 devices";
    return out;
  }
  for (const auto& d : env.devices) {
    arch::DeviceSpec spec;
    spec.label = fmt::format("device {}", d.index);  // shown before the product (given stays empty)
    spec.cc = d.cc;
    spec.driver = env.driver;
    spec.product = d.name;
    out.push_back(std::move(spec));
  }
  return out;
}

int nvcc_major() {
  const std::string& v = build_manifest().nvcc_version;  // "13.0": the toolkit archbench was built with
  try {
    return std::stoi(v);
  } catch (const std::exception&) {
    return 0;
  }
}

int scan_command(const ScanOptions& o) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto specs = device_specs_or_explain("scan", o.devices, o.driver, o.fleet_path);
  if (!specs) return kUsage;
  std::vector<arch::DeviceSpec> devices = std::move(*specs);
  // No GPU and no --device: the inventory is still an answer (what is installed, with which
  // targets), printed unjudged; the exit stays "no device".
  std::string no_device_why;
  if (devices.empty()) devices = present_devices(no_device_why);

  stack::ReadOptions read;
  read.kernels = o.kernels;
  read.threads = o.threads;
  const bool terminal = !o.quiet && ::isatty(STDERR_FILENO) != 0;
  auto last = Clock::now();
  if (terminal) {
    read.progress = [&](size_t seen, size_t found) {
      if (Clock::now() - last < std::chrono::milliseconds(200)) return;
      last = Clock::now();
      std::fprintf(stderr, "\rarchbench scan: %zu files looked at, %zu with device code...", seen, found);
      std::fflush(stderr);
    };
  }
  stack::Inventory inv;
  std::vector<stack::Distribution> dists;
  std::vector<std::string> paths = o.paths;
  if (paths.empty()) {
    std::string error;
    const auto env = stack::ask_python(o.python, error);
    if (!env) {
      std::cerr << "archbench scan: " << error << "\n  (give a PATH to scan, or --python EXE)\n";
      return kBadInput;
    }
    if (!o.quiet) {
      std::cerr << fmt::format("archbench scan: the environment of {} (Python {}): {}\n", env->executable, env->version,
                               fmt::join(env->site_dirs, ", "));
    }
    paths = env->site_dirs;
  }
  for (const auto& p : paths) {
    try {
      stack::read_source(p, read, inv, dists);
    } catch (const std::exception& e) {
      inv.unreadable.push_back({p, e.what()});
    }
  }
  if (o.paths.empty()) {  // the CUDA libraries the loader would take from outside the environment
    for (const auto& lib : stack::outside_cuda_libraries(inv)) stack::read_binary(lib, read, inv);
  }
  if (terminal) std::fprintf(stderr, "\r%80s\r", "");
  stack::attribute(inv, dists);

  stack::ScanReport report;
  report.inventory = &inv;
  const TextToStderr text_to_stderr(is_stdout(o.json_path));  // --json -: JSON alone on stdout
  if (devices.empty()) {
    std::cout << stack::format_inventory(inv);
    if (!o.json_path.empty() && !write_or_say("scan", o.json_path, stack::scan_to_json(report).dump(2) + "\n")) {
      return kInternal;
    }
    std::cerr << "archbench scan: no usable GPU here (" << no_device_why
              << ") and no --device: the inventory above is not judged; name the devices to judge for, e.g. "
                 "--device 9.0@580 --device \"RTX 5090@570\"\n";
    return kNoDevice;
  }
  // The loader overrides of this process's environment describe only the environment it runs in.
  report.devices = stack::judge_inventory(
      inv, devices, {nvcc_major(), o.paths.empty() ? stack::loader_overrides_from_environment() : std::map<std::string, std::string>{}});
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  report.show_files = o.files;
  report.show_kernels = o.kernels;

  std::cout << stack::format_scan(report);
  if (!o.json_path.empty() && !write_or_say("scan", o.json_path, stack::scan_to_json(report).dump(2) + "\n")) {
    return kInternal;
  }
  if (!o.markdown_path.empty() && !write_or_say("scan", o.markdown_path, stack::format_scan_markdown(report))) {
    return kInternal;
  }
  if (inv.files.empty()) {
    // Nothing to judge is not a pass: a gate pointed at the wrong directory must not say yes.
    std::cerr << "archbench scan: no device code found in " << fmt::format("{}", fmt::join(paths, ", "))
              << ": nothing was judged\n";
    return inv.unreadable.empty() ? kOperatorFailed : kBadInput;
  }
  if (!stack::every_package_runs(report)) return kOperatorFailed;
  return inv.unreadable.empty() ? kOk : kBadInput;
}

}  // namespace

void add_scan_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(app, commands, "scan",
      "will this Python environment, wheel, container image or folder run on these GPUs? (no GPU needed)", scan_command);
  cmd->add_option("paths", o->paths,
                  "directories (site-packages, venv, conda prefix, custom_nodes), wheels, container image archives "
                  "(docker save / OCI layout) or binaries; none: the environment of --python");
  add_python_option(cmd, o->python, "environment to scan when no PATH is given");
  // One value per --device (repeat it for more), so that a path after it stays a path.
  value_name(cmd->add_option("--device", o->devices,
                             "judge for a device: CC (8.9), CC@driver (12.0@570), or a product (\"RTX 5090@570\"); "
                             "repeatable; default: the GPUs present with their driver")->allow_extra_args(false),
             "DEVICE");
  value_name(cmd->add_option("--driver", o->driver, "driver for devices given without one: CUDA version (12.8) or branch (570)"), "DRIVER");
  value_name(cmd->add_option("--fleet", o->fleet_path, "JSON file listing devices (docs/inspect.md)"), "FILE");
  cmd->add_flag("--files", o->files, "list every file with device code under its package");
  cmd->add_flag("--kernels", o->kernels, "name kernels (decompresses every image; slower) and judge kernel by kernel");
  add_json_option(cmd, o->json_path, "the scan", "archbench.scan v1");
  value_name(cmd->add_option("--markdown", o->markdown_path, "write a Markdown summary (for a CI job summary)"), "FILE");
  value_name(cmd->add_option("--threads", o->threads, "files read at once (default: one per hardware thread)"), "N");
  cmd->add_flag("-q,--quiet", o->quiet, "no progress on stderr");
}

}  // namespace archbench::cli
