// The command line's own face: help without CLI11's artifacts (no "TEXT"/"UINT" placeholders, no
// "{false}" after a negated flag, lines wrapped to 120 columns), errors in archbench's words, and
// "did you mean" for a mistyped option or subcommand.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "harness/util/enum_names.hpp"

namespace archbench::cli {

// Help as CLI11 lays it out (the sections check_docs.py reads stay as they are), with each option's
// placeholder from Option::option_text ("--json FILE"; "(required)" after a required one), flag
// names without their default value, and descriptions wrapped under their column.
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter();
  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_option_name(const CLI::Option* opt, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* opt) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;
};

// The placeholder of an option's value, in help and in CLI11's own messages: "FILE", "GLOBS".
CLI::Option* value_name(CLI::Option* opt, const std::string& name);

// An option whose value is one of an enum's names (its enum_names table): parsed here, once, into
// the enum; anything else, a number too, is a usage error that names the option and the values.
// Placeholder: "off|auto|all".
template <typename Enum, size_t N>
CLI::Option* add_enum_option(CLI::App* command, const std::string& name, Enum& value, const EnumNames<Enum, N>& table,
                             const std::string& help) {
  std::string names;
  for (const auto& e : table) names += (names.empty() ? "" : "|") + std::string(e.name);
  auto to_index = [table, names](std::string& given) -> std::string {
    const auto parsed = parse_name(table, given);
    if (!parsed) return "'" + given + "' is not one of " + names;
    given = std::to_string(static_cast<int>(*parsed));  // CLI11 then reads the enum from its number
    return {};
  };
  return value_name(command->add_option(name, value, help)->transform(CLI::Validator(to_index, "")), names);
}

// A value that must be one of `names` ("--disable-sdpa-backend: 'fast' is not one of cudnn|flash|...").
[[nodiscard]] CLI::Validator one_of(std::vector<std::string> names);

// A number of seconds above zero ("--op-timeout: must be a number of seconds above 0, not '-1'").
[[nodiscard]] CLI::Validator positive_seconds();

// "archbench run" for the deepest subcommand given on the command line.
[[nodiscard]] std::string command_path(const CLI::App& app);

// The deepest subcommand given on the command line (the app itself when none).
[[nodiscard]] const CLI::App& active_command(const CLI::App& app);

// For arguments a command did not take (CLI11's remaining(), with allow_extras): the error, with
// the nearest option or subcommand when one is near enough; nullopt when nothing was left over.
// "unknown option --devcie; did you mean --device?"
[[nodiscard]] std::optional<std::string> leftover_message(const CLI::App& command,
                                                           const std::vector<std::string>& leftover);

}  // namespace archbench::cli
