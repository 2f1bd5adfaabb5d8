// The archbench subcommands. Each command file adds its own subcommand to the command line, binds
// its options to its own options struct and says what runs it (add_*_command); main() parses the
// command line and runs the one given. Adding a command: one file, and its add_*_command named
// below and in kCommands.
#pragma once

#include <CLI/CLI.hpp>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace archbench::cli {

// One runnable subcommand ("history add" and "baseline update" are each one).
struct Command {
  const CLI::App* app = nullptr;  // parsed when the command line names it
  std::function<int()> run;       // its exit code (exit_codes.hpp)
};
using Commands = std::vector<Command>;

// Adds the subcommand `name` of `parent`, with a fresh Options for its option bindings and `run`
// to run on them once the command line names it; returns the subcommand and the Options to bind.
// The Options are shared by the bindings (CLI11 writes them while parsing) and the run.
template <typename Options>
std::pair<CLI::App*, Options*> add_command(CLI::App& parent, Commands& commands, const std::string& name,
                                           const std::string& description, int (*run)(const Options&)) {
  auto options = std::make_shared<Options>();
  CLI::App* cmd = parent.add_subcommand(name, description);
  commands.push_back({cmd, [options, run] { return run(*options); }});
  return {cmd, options.get()};
}

// What each command file defines (add_run_command in run_command.cpp, ...): adds its subcommand.
using AddCommandFn = void(CLI::App& app, Commands& commands);
using AddCommand = AddCommandFn*;
AddCommandFn add_run_command, add_list_command, add_inspect_command, add_scan_command, add_history_command,
    add_arch_list_command, add_framework_command, add_baseline_command, add_compare_command, add_merge_command,
    add_report_command, add_resources_command, add_worker_command, add_doctor_command;

// In the order `archbench --help` lists them.
inline constexpr std::array<AddCommand, 14> kCommands{
    add_run_command,       add_list_command,    add_inspect_command, add_scan_command,  add_history_command,
    add_arch_list_command, add_framework_command, add_baseline_command, add_compare_command, add_merge_command,
    add_report_command,    add_resources_command, add_worker_command,  add_doctor_command,
};

}  // namespace archbench::cli
