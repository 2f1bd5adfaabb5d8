// archbench: per device and per operator, which kernel image runs, whether it computes the
// right answer, and how fast. See README.md and docs/.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "harness/manifest/build_manifest.hpp"
#include "harness/util/text_wrap.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/exit_codes.hpp"

int main(int argc, char** argv) {
  using namespace archbench;
  CLI::App app{"archbench: which kernel image runs on this GPU, is it right, how fast"};
  // Set before the subcommands are added: they inherit the formatter, the help flag and
  // allow_extras, which leaves unknown arguments to leftover_message() (a suggestion) instead of
  // CLI11's "The following arguments were not expected".
  app.formatter(std::make_shared<cli::HelpFormatter>());
  app.set_help_flag("-h,--help", "print this help and exit");
  app.allow_extras();
  app.require_subcommand(0, 1);
  bool version = false;
  app.add_flag("--version", version, "print the build manifest and exit");

  cli::Commands commands;
  for (cli::AddCommand add : cli::kCommands) add(app, commands);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    // "archbench nosuch --help": an unknown command, not a request for the top-level help.
    if (argc > 1 && argv[1][0] != '-') {
      try {
        (void)app.get_subcommand(argv[1]);
      } catch (const CLI::OptionNotFound&) {
        std::cerr << text::wrap_text("archbench: " + cli::leftover_message(app, {argv[1]}).value_or("unknown command") + "\n")
                  << "(`archbench --help` lists the commands)\n";
        return cli::kUsage;
      }
    }
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string where = cli::command_path(app);
    std::cerr << text::wrap_text(where + ": " + e.what() + "\n") << "(`" << where << " --help` lists the options)\n";
    return cli::kUsage;
  }
  const CLI::App& given = cli::active_command(app);
  if (const auto leftover = cli::leftover_message(given, given.remaining()); leftover) {
    const std::string where = cli::command_path(app);
    std::cerr << text::wrap_text(where + ": " + *leftover + "\n") << "(`" << where << " --help` lists the options)\n";
    return cli::kUsage;
  }
  try {
    if (version) {
      std::cout << format_manifest(build_manifest());
      return cli::kOk;
    }
    for (const auto& command : commands) {
      if (command.app->parsed()) return command.run();
    }
    std::cout << app.help();
    return cli::kUsage;
  } catch (const std::exception& e) {
    std::cerr << "archbench: internal error: " << e.what() << "\n";
    return cli::kInternal;
  }
}
