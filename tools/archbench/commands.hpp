// The archbench subcommands. Each command file adds its own subcommand to the command line, binds
// its options to its own options struct and says what runs it (add_*_command); main() parses the
// command line and runs the one given. Adding a command: one file and one line in kCommands.
#pragma once

#include <CLI/CLI.hpp>

#include <array>
#include <functional>
#include <vector>

namespace archbench::cli {

// One runnable subcommand ("history add" and "baseline update" are each one).
struct Command {
  const CLI::App* app = nullptr;  // parsed when the command line names it
  std::function<int()> run;       // its exit code (exit_codes.hpp)
};
using Commands = std::vector<Command>;
using AddCommand = void (*)(CLI::App& app, Commands& commands);

void add_run_command(CLI::App& app, Commands& commands);            // run_command.cpp
void add_list_command(CLI::App& app, Commands& commands);           // list_command.cpp
void add_inspect_command(CLI::App& app, Commands& commands);        // inspect_command.cpp
void add_scan_command(CLI::App& app, Commands& commands);           // scan_command.cpp
void add_history_command(CLI::App& app, Commands& commands);        // history_command.cpp
void add_arch_list_command(CLI::App& app, Commands& commands);      // arch_list_command.cpp
void add_framework_command(CLI::App& app, Commands& commands);      // framework_command.cpp
void add_baseline_command(CLI::App& app, Commands& commands);       // baseline_command.cpp
void add_compare_command(CLI::App& app, Commands& commands);        // compare_command.cpp
void add_merge_command(CLI::App& app, Commands& commands);          // merge_command.cpp
void add_report_command(CLI::App& app, Commands& commands);         // report_command.cpp
void add_resources_command(CLI::App& app, Commands& commands);      // resources_command.cpp
void add_worker_command(CLI::App& app, Commands& commands);         // worker_command.cpp (hidden)
void add_doctor_command(CLI::App& app, Commands& commands);         // doctor_command.cpp

// In the order `archbench --help` lists them.
inline constexpr std::array<AddCommand, 14> kCommands{
    add_run_command,       add_list_command,    add_inspect_command, add_scan_command,  add_history_command,
    add_arch_list_command, add_framework_command, add_baseline_command, add_compare_command, add_merge_command,
    add_report_command,    add_resources_command, add_worker_command,  add_doctor_command,
};

}  // namespace archbench::cli
