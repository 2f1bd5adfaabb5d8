#include "harness/report/html_fleet.hpp"

#include <fmt/format.h>

#include "harness/report/html_escape.hpp"
#include "harness/report/html_page.hpp"

namespace archbench::html {
namespace {

std::string cell_html(const FleetCell& c) {
  using Outcome = OperatorVerdict::Outcome;
  std::string cls = status_class(c.verdict);
  std::string text = escape(c.verdict.outcome == Outcome::Image ? c.image_label : std::string(c.verdict.name()));
  if (c.pct_of_ceiling) text += fmt::format("<br>{:.0f}%", *c.pct_of_ceiling);
  if (c.change && *c.change != Change::Same) {
    const bool worse = c.regression;
    text += fmt::format("<br><span class=\"{}\">{}", worse ? "regression" : "improvement", change_name(*c.change));
    if (*c.change == Change::Slower || *c.change == Change::Faster) text += fmt::format(" {:+.1f}%", 100 * c.effect);
    text += "</span>";
  }
  const std::string tip = c.failed ? c.problem : c.change_detail;
  return fmt::format("<td class=\"{}\" title=\"{}\">{}</td>", cls, escape(tip), text);
}

}  // namespace

std::string fleet_page(const FleetMatrix& m) {
  std::string b = "<h1>archbench fleet report</h1>\n<h2>Devices</h2>\n<table><tr><th>column</th><th>device</th><th>CC</th>"
                  "<th>arch list</th><th>operators</th><th>failed</th><th>regressions</th><th>baseline</th><th>results</th></tr>\n";
  for (const auto& d : m.devices) {
    b += fmt::format("<tr><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td class=\"mono\">{}</td><td class=\"num\">{}</td>"
                     "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"mono\">{}</td><td class=\"mono\">{}</td></tr>\n",
                     escape(d.column), escape(d.name), escape(d.cc), escape(d.build.arch_list.empty() ? "?" : d.build.arch_list),
                     d.operators, d.failed, d.baseline.empty() ? "-" : std::to_string(d.regressions),
                     escape(d.baseline.empty() ? "none" : d.baseline), escape(d.source));
  }
  b += "</table>\n<h2>Failures and regressions</h2>\n";
  std::string problems;
  for (const auto& r : m.rows) {
    for (size_t i = 0; i < r.cells.size(); ++i) {
      if (!r.cells[i] || !(r.cells[i]->failed || r.cells[i]->regression)) continue;
      const auto& c = *r.cells[i];
      problems += fmt::format("<tr><td class=\"mono\">{}</td><td class=\"mono\">{}</td>{}<td>{}</td></tr>\n", escape(r.id),
                              escape(m.devices[i].column), cell_html(c), escape(c.failed ? c.problem : c.change_detail));
    }
  }
  b += problems.empty() ? "<p>None.</p>\n"
                        : "<table><tr><th>operator</th><th>device</th><th>verdict</th><th>detail</th></tr>\n" + problems + "</table>\n";
  b += "<h2>Matrix</h2>\n<p class=\"legend\">";
  b += status_legend();
  b += "</p>\n<table class=\"matrix\"><tr><th>operator</th>";
  for (const auto& d : m.devices) b += "<th class=\"mono\">" + escape(d.column) + "</th>";
  b += "</tr>\n";
  for (const auto& r : m.rows) {
    b += "<tr><td class=\"mono\">" + escape(r.id) + "</td>";
    for (const auto& c : r.cells) b += c ? cell_html(*c) : std::string("<td class=\"st-none\">&middot;</td>");
    b += "</tr>\n";
  }
  b += "</table>\n";
  return page("archbench fleet report", b);
}

}  // namespace archbench::html
