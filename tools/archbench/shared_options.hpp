// Options several commands share: one meaning, one help text, one placeholder each.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace archbench::cli {

// --baseline FILE|DIR: a baseline file, or a directory of <device-key>.json (compare, report).
CLI::Option* add_baseline_option(CLI::App* command, std::string& path);

// --thresholds FILE: the gate's JSON thresholds (compare, merge, report).
CLI::Option* add_thresholds_option(CLI::App* command, std::string& path);

}  // namespace archbench::cli
