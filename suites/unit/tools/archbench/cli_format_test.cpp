// Help and errors without CLI11's artifacts, and "did you mean" for a mistyped option or command:
// on a small app with the same setup as main.cpp, and on the built archbench's real help.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "suites/unit/text_width.hpp"
#include "tools/archbench/cli_format.hpp"

namespace archbench::cli {
namespace {

struct Demo {
  CLI::App app{"demo: a small app set up like archbench"};
  CLI::App* run = nullptr;
  std::string device = "all", json;
  bool timing = true, quiet = false;
  double timeout = 0;
  Demo() {
    app.formatter(std::make_shared<HelpFormatter>());
    app.set_help_flag("-h,--help", "print this help and exit");
    app.allow_extras();
    run = app.add_subcommand("run", "run it");
    value_name(run->add_option("--device", device, "CUDA device indices, comma-separated (0,1), or all"), "LIST");
    value_name(run->add_option("--json", json, "write the results as JSON; - for stdout"), "FILE")->required();
    run->add_flag("!--no-timing", timing, "image and correctness only");
    run->add_flag("-q,--quiet", quiet, "no progress");
    value_name(run->add_option("--op-timeout", timeout, "seconds an operator may run " + std::string(120, 'x')),
               "SECONDS")
        ->check(positive_seconds());
    app.add_subcommand("list", "list");
  }
  // The error main() would print, or "" when the command line parses.
  std::string parse(std::vector<std::string> args) {
    std::vector<const char*> argv{"archbench"};
    for (const auto& a : args) argv.push_back(a.c_str());
    try {
      app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
      return e.what();
    }
    const CLI::App& given = active_command(app);
    return leftover_message(given, given.remaining()).value_or("");
  }
};

TEST(CliFormat, HelpHasNoCli11Artifacts) {
  Demo d;
  const std::string help = d.run->help();
  for (const char* artifact : {"TEXT", "UINT", "FLOAT", "INT", "{false}", "POSITIVE", "REQUIRED", "Print this"})
    EXPECT_EQ(help.find(artifact), std::string::npos) << artifact << " in\n" << help;
  EXPECT_NE(help.find("  --device LIST               CUDA device indices"), std::string::npos) << help;
  EXPECT_NE(help.find("  --json FILE (required)      write the results"), std::string::npos) << help;
  EXPECT_NE(help.find("  --no-timing                 image and correctness only"), std::string::npos) << help;
  EXPECT_NE(help.find("  -q,--quiet                  no progress"), std::string::npos) << help;
  EXPECT_NE(help.find("\n                              xxx"), std::string::npos) << "a long description wraps\n" << help;
  EXPECT_EQ(testing_support::too_wide(help), "") << help;
}

TEST(CliFormat, ErrorsSayWhatIsWrongInWords) {
  EXPECT_EQ(Demo().parse({"run", "--json", "x", "--op-timeout", "-1"}),
            "--op-timeout: must be a number of seconds above 0, not '-1'");
  EXPECT_EQ(Demo().parse({"run", "--json", "x", "--op-timeout", "soon"}),
            "--op-timeout: must be a number of seconds above 0, not 'soon'");
  EXPECT_EQ(Demo().parse({"run", "--json", "x", "--op-timeout", "2.5"}), "");
}

TEST(CliFormat, UnknownOptionsAndCommandsGetTheNearestName) {
  EXPECT_EQ(Demo().parse({"run", "--json", "x", "--devcie", "0"}), "unknown option --devcie; did you mean --device?");
  EXPECT_EQ(Demo().parse({"run", "--json", "x", "--devcie=0"}), "unknown option --devcie; did you mean --device?");
  EXPECT_EQ(Demo().parse({"run", "--json", "x", "--no-timming"}), "unknown option --no-timming; did you mean --no-timing?");
  EXPECT_EQ(Demo().parse({"run", "--json", "x", "--frobnicate"}), "unknown option --frobnicate");
  EXPECT_EQ(Demo().parse({"runn"}), "unknown command 'runn'; did you mean run?");
  EXPECT_EQ(Demo().parse({"run", "--json", "x", "extra"}), "unexpected argument 'extra'");
}

}  // namespace
}  // namespace archbench::cli
