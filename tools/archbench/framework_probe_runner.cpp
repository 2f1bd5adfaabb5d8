#include "tools/archbench/framework_probe_runner.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tools/archbench/temp_dir.hpp"

#ifndef ARCHBENCH_FRAMEWORK_PROBE
#define ARCHBENCH_FRAMEWORK_PROBE "tools/framework/framework_probe.py"
#endif

namespace archbench::cli {
namespace {

using framework::FrameworkOp;
using nlohmann::json;

json request_json(const std::vector<FrameworkOp>& ops, const FrameworkOptions& o) {
  json list = json::array();
  for (const auto& o : ops) {
    list.push_back({{"id", o.id}, {"op", o.op}, {"dtype", std::string(dtype_name(o.dtype))},
                    {"layout", o.layout == framework::Layout::ChannelsLast ? json("channels_last") : json(nullptr)},
                    {"dims", o.dims}, {"twin", o.twin}});
  }
  std::vector<std::string> plugins;
  for (const auto& p : o.plugin_files) plugins.push_back(std::filesystem::absolute(p).string());
  std::vector<std::string> steps;
  if (!o.quick && o.steps != "none") {
    for (size_t at = 0; at <= o.steps.size();) {
      const size_t end = std::min(o.steps.find(',', at), o.steps.size());
      if (end > at) steps.push_back(o.steps.substr(at, end - at));
      at = end + 1;
    }
  }
  return {{"schema", "archbench.framework.request"}, {"schema_version", 1}, {"quick", o.quick}, {"seed", o.seed},
          {"disable_sdpa_backends", o.disable_sdpa_backends}, {"plugins", plugins}, {"steps", steps}, {"ops", list}};
}

// Single quotes for sh, so that paths with spaces or quotes reach the probe as they are.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs the probe under a deadline (coreutils timeout: SIGTERM, then SIGKILL 10 s later); its
// stdout is the answer, its stderr (progress, the framework's warnings) goes to ours.
int run_probe(const std::string& python, const std::string& probe, const std::string& request, double deadline_s,
              std::string& out) {
  const std::string command = fmt::format("timeout -k 10 {:.0f} {} {} {}", deadline_s, quoted(python), quoted(probe),
                                          quoted(request));
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return -1;
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace

ProbeRun run_framework_probe(const std::vector<FrameworkOp>& ops, const FrameworkOptions& o) {
  const TempDir dir("archbench-framework", "directory for the probe's request");
  const std::string request = dir.file("request.json");
  std::ofstream(request) << request_json(ops, o).dump();
  ProbeRun run;
  run.exit_code = run_probe(o.python, o.probe.empty() ? ARCHBENCH_FRAMEWORK_PROBE : o.probe, request, o.timeout_s, run.text);
  if (run.exit_code == 124 || run.exit_code == 137) run.outcome = ProbeRun::Outcome::Timeout;
  if (run.exit_code == 127 || run.exit_code == -1) run.outcome = ProbeRun::Outcome::NoInterpreter;
  return run;
}

}  // namespace archbench::cli
