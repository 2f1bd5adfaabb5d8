#include "tools/archbench/shared_options.hpp"

#include "tools/archbench/cli_format.hpp"

namespace archbench::cli {

CLI::Option* add_baseline_option(CLI::App* command, std::string& path) {
  return value_name(
      command->add_option("--baseline", path, "baseline file, or a directory holding <device-key>.json (e.g. baselines)"),
      "FILE|DIR");
}

CLI::Option* add_thresholds_option(CLI::App* command, std::string& path) {
  return value_name(command->add_option("--thresholds", path, "JSON: default and per-family min_effect / alpha"), "FILE");
}

}  // namespace archbench::cli
