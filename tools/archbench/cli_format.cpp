#include "tools/archbench/cli_format.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "harness/util/text_wrap.hpp"
#include "harness/util/edit_distance.hpp"

namespace archbench::cli {
namespace {

constexpr size_t kNameColumn = 30;

// "  --json FILE                 write ..." with the description wrapped under its column.
std::string help_line(const std::string& name, const std::string& description) {
  std::string first = "  " + name;
  const std::string next(kNameColumn, ' ');
  if (description.empty()) return first + "\n";
  if (first.size() >= kNameColumn) return first + "\n" + text::wrap(description, text::kColumns, next, next);
  first.resize(kNameColumn, ' ');
  return text::wrap(description, text::kColumns, first, next);
}

}  // namespace

HelpFormatter::HelpFormatter() { column_width(kNameColumn); }

std::string HelpFormatter::make_option(const CLI::Option* opt, bool is_positional) const {
  return help_line(make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt));
}

std::string HelpFormatter::make_option_name(const CLI::Option* opt, bool is_positional) const {
  std::string name = CLI::Formatter::make_option_name(opt, is_positional);
  // "!--no-timing" is listed as "--no-timing{false}": the flag's value is no news to the reader.
  for (size_t open = name.find('{'); open != std::string::npos; open = name.find('{')) {
    const size_t close = name.find('}', open);
    name.erase(open, close == std::string::npos ? std::string::npos : close - open + 1);
  }
  return name;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  // Flags have no value; a positional's name already says what it is.
  if (opt->get_option_text().empty() || opt->get_positional()) return "";
  return " " + opt->get_option_text() + (opt->get_required() ? " (required)" : "");
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  return help_line(sub->get_display_name(true), sub->get_description());
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string desc = app->get_description();
  return desc.empty() ? std::string() : text::wrap(desc, text::kColumns, "", "");
}

CLI::Option* value_name(CLI::Option* opt, const std::string& name) { return opt->type_name(name)->option_text(name); }

CLI::Validator one_of(std::vector<std::string> names) {
  std::string joined;
  for (const auto& n : names) joined += (joined.empty() ? "" : "|") + n;
  return CLI::Validator(
      [names = std::move(names), joined](const std::string& given) -> std::string {
        if (std::ranges::find(names, given) != names.end()) return {};
        return "'" + given + "' is not one of " + joined;
      },
      joined);
}

CLI::Validator positive_seconds() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        double v = 0;
        const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
        if (r.ec == std::errc{} && r.ptr == value.data() + value.size() && std::isfinite(v) && v > 0) return {};
        return "must be a number of seconds above 0, not '" + value + "'";
      },
      "SECONDS", "positive seconds");
}

const CLI::App& active_command(const CLI::App& app) {
  const CLI::App* at = &app;
  for (;;) {
    const auto subs = at->get_subcommands();
    if (subs.empty()) return *at;
    at = subs.front();
  }
}

std::string command_path(const CLI::App& app) {
  std::string path = "archbench";
  const CLI::App* at = &app;
  for (;;) {
    const auto subs = at->get_subcommands();
    if (subs.empty()) return path;
    at = subs.front();
    path += " " + at->get_name();
  }
}

std::optional<std::string> leftover_message(const CLI::App& command, const std::vector<std::string>& leftover) {
  if (leftover.empty()) return std::nullopt;
  std::vector<std::string> options, commands;
  for (const CLI::Option* o : command.get_options()) {
    for (const auto& l : o->get_lnames()) options.push_back("--" + l);
    for (const auto& s : o->get_snames()) options.push_back("-" + s);
  }
  for (const CLI::App* s : command.get_subcommands([](const CLI::App*) { return true; })) {
    if (!s->get_group().empty()) commands.push_back(s->get_name());  // hidden ones (group "") stay hidden
  }
  for (const auto& arg : leftover) {
    if (arg.size() > 1 && arg.front() == '-') {
      const std::string name = arg.substr(0, arg.find('='));
      const auto near = nearest(name, options, std::max<size_t>(2, name.size() / 4));
      return fmt::format("unknown option {}{}", name, near ? "; did you mean " + *near + "?" : std::string());
    }
  }
  const std::string& word = leftover.front();
  if (!commands.empty()) {
    const auto near = nearest(word, commands, std::max<size_t>(2, word.size() / 3));
    return fmt::format("unknown command '{}'{}", word, near ? "; did you mean " + *near + "?" : std::string());
  }
  return fmt::format("unexpected argument '{}'", word);
}

}  // namespace archbench::cli
