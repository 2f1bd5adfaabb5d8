// Options several commands share: one meaning, one help text, one placeholder each.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace archbench::cli {

// --baseline FILE|DIR: a baseline file, or a directory of <device-key>.json (compare, report).
CLI::Option* add_baseline_option(CLI::App* command, std::string& path);

// --thresholds FILE: the gate's JSON thresholds (compare, merge, report).
CLI::Option* add_thresholds_option(CLI::App* command, std::string& path);

// --json FILE: `what` as JSON (schema `schema`); "-" writes it to stdout, alone (json_output.hpp).
CLI::Option* add_json_option(CLI::App* command, std::string& path, const std::string& what, const std::string& schema);

// --filter GLOBS: comma-separated globs over `over` (operator ids, kernel names, ...); any one matches.
CLI::Option* add_filter_option(CLI::App* command, std::string& globs, const std::string& over);

// --python EXE: the interpreter whose `purpose` (default python3).
CLI::Option* add_python_option(CLI::App* command, std::string& exe, const std::string& purpose);

}  // namespace archbench::cli
