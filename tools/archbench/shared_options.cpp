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

CLI::Option* add_json_option(CLI::App* command, std::string& path, const std::string& what, const std::string& schema) {
  return value_name(command->add_option("--json", path, "write " + what + " as JSON (schema " + schema +
                                                            "); - for stdout (the text then goes to stderr)"),
                    "FILE");
}

CLI::Option* add_filter_option(CLI::App* command, std::string& globs, const std::string& over) {
  return value_name(command->add_option("--filter", globs, "globs over " + over + ", comma-separated (any one matches)"),
                    "GLOBS");
}

CLI::Option* add_python_option(CLI::App* command, std::string& exe, const std::string& purpose) {
  return value_name(command->add_option("--python", exe, "the interpreter whose " + purpose + " (default python3)"), "EXE");
}

}  // namespace archbench::cli
