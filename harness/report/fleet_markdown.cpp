#include "harness/report/fleet_markdown.hpp"

#include <fmt/format.h>

#include <vector>

namespace archbench {
namespace {

std::string cell_text(const FleetCell& c) {
  std::string s;
  using Outcome = OperatorVerdict::Outcome;
  if (c.verdict.outcome == Outcome::Absent) return "⛔ absent (in the baseline)";
  if (c.failed) s = "❌ ";
  else if (c.regression) s = "🔻 ";
  else if (c.verdict.is(ImageOutcome::PtxJit)) s = "⚠️ ";
  else if (c.verdict.is(ImageOutcome::Unsupported)) s = "➖ ";
  else s = "✅ ";
  s += markdown_cell(c.verdict.outcome == Outcome::Image ? c.image_label
                                                         : std::string(c.verdict.name()) + " (" + c.image_label + ")");
  if (c.pct_of_ceiling) s += fmt::format(" · {:.0f}%", *c.pct_of_ceiling);
  if (c.change && *c.change != Change::Same) {
    s += " · " + markdown_cell(std::string(change_name(*c.change)));
    if (*c.change == Change::Slower || *c.change == Change::Faster) s += fmt::format(" {:+.1f}%", 100 * c.effect);
  }
  return s;
}

}  // namespace

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '|': out += "\\|"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\n': case '\r': out += ' '; break;
      default: out += ch;
    }
  }
  return out;
}

std::string fleet_to_markdown(const FleetMatrix& m, size_t limit_bytes) {
  std::vector<std::string> lines;
  lines.emplace_back("## archbench fleet report\n");
  lines.emplace_back("| device | CC | arch list | operators | failed | regressions | verdicts | baseline | results |");
  lines.emplace_back("|---|---|---|---:|---:|---:|---|---|---|");
  for (const auto& d : m.devices) {
    std::string verdicts;
    for (const auto& [v, n] : d.verdicts) verdicts += fmt::format("{}{} {}", verdicts.empty() ? "" : ", ", n, v);
    lines.push_back(fmt::format("| {} (`{}`) | {} | `{}` | {} | {} | {} | {} | {} | {} |", markdown_cell(d.name), markdown_cell(d.column),
                                markdown_cell(d.cc), markdown_cell(d.build.arch_list.empty() ? "?" : d.build.arch_list), d.operators,
                                d.failed, d.baseline.empty() ? "–" : std::to_string(d.regressions), markdown_cell(verdicts),
                                d.baseline.empty() ? "none" : markdown_cell(d.baseline), markdown_cell(d.source)));
  }
  const size_t fixed = lines.size();

  std::vector<std::string> body;
  body.emplace_back("\n### Failures and regressions\n");
  body.emplace_back("| operator | device | verdict | detail |");
  body.emplace_back("|---|---|---|---|");
  size_t problems = 0;
  for (const auto& r : m.rows) {
    for (size_t i = 0; i < r.cells.size(); ++i) {
      if (!r.cells[i] || !(r.cells[i]->failed || r.cells[i]->regression)) continue;
      const auto& c = *r.cells[i];
      ++problems;
      body.push_back(fmt::format("| `{}` | {} | {} | {} |", markdown_cell(r.id), markdown_cell(m.devices[i].column), cell_text(c),
                                 markdown_cell(c.failed ? c.problem : c.change_detail)));
    }
  }
  if (problems == 0) {
    body.resize(1);
    body.emplace_back("None.");
  }
  body.emplace_back("\n### Matrix\n");
  std::string head = "| operator |", rule = "|---|";
  for (const auto& d : m.devices) {
    head += " " + markdown_cell(d.column) + " |";
    rule += "---|";
  }
  body.push_back(head);
  body.push_back(rule);
  for (const auto& r : m.rows) {
    std::string line = "| `" + markdown_cell(r.id) + "` |";
    for (const auto& c : r.cells) line += " " + (c ? cell_text(*c) : std::string("·")) + " |";
    body.push_back(line);
  }

  std::string out;
  for (size_t i = 0; i < fixed; ++i) out += lines[i] + "\n";
  // Room for the truncation note itself.
  constexpr size_t kNoteRoom = 400;
  size_t kept = 0;
  for (const auto& line : body) {
    if (out.size() + line.size() + 1 + kNoteRoom > limit_bytes) break;
    out += line + "\n";
    ++kept;
  }
  if (kept < body.size()) {
    out += fmt::format("\n> **Truncated:** {} of {} lines left out to stay under the {}-byte job summary limit; "
                       "the full matrix is in fleet.html and fleet.json (workflow artifacts).\n",
                       body.size() - kept, body.size(), limit_bytes);
  }
  return out;
}

}  // namespace archbench
