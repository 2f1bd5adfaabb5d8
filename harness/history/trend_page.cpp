#include "harness/history/trend_page.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>

#include "harness/report/html_escape.hpp"
#include "harness/report/html_line_chart.hpp"
#include "harness/report/html_page.hpp"

namespace archbench::history {
namespace {

// The recorded environment's keys that name a change on the chart when they differ between runs.
std::string short_change(const nlohmann::json& before, const nlohmann::json& after) {
  if (before.value("revision", "") != after.value("revision", "")) return "rev " + after.value("revision", "").substr(0, 7);
  for (const char* k : {"cuDNN", "cuBLAS", "driver", "runtime", "arch_list"}) {
    if (before.value(k, "") != after.value(k, "")) return std::string(k) + " " + after.value(k, "");
  }
  return "";
}

}  // namespace

std::string trend_page(const HistoryStore& store, const std::vector<Step>& steps, const std::string& title,
                       size_t max_series) {
  std::map<std::string, std::vector<RecordedRun>> runs_of;
  for (auto& r : store.runs()) runs_of[r.runner].push_back(std::move(r));
  // One chart per (runner, operator), in the order of their first step (regressions first).
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, std::vector<const Step*>> steps_of;
  for (const auto& s : steps) {
    const auto key = std::make_pair(s.runner, s.op);
    if (!steps_of.contains(key)) order.push_back(key);
    steps_of[key].push_back(&s);
  }
  size_t regressions = 0;
  for (const auto& s : steps) regressions += s.regression();
  std::string b = fmt::format("<h1>archbench history: {}</h1>\n", html::escape(title));
  size_t run_count = 0;
  for (const auto& [runner, runs] : runs_of) run_count += runs.size();
  b += fmt::format("<p>{} runner(s), {} run(s); {} step(s), {} regression(s): <b class=\"{}\">{}</b></p>\n",
                   runs_of.size(), run_count, steps.size(), regressions, regressions ? "regression" : "improvement",
                   regressions ? "FAIL" : "PASS");
  b += "<p class=\"legend\"><span style=\"color:#4e79a7\">&#9679; median per run</span>"
       "<span style=\"color:#59a14f\">&#9473; segment median</span>"
       "<span style=\"color:#b3261e\">&#9482; step</span><span style=\"color:#8a8f98\">&#9482; environment change</span></p>\n";
  if (steps.empty()) b += "<p>No step in the newest runs of any runner.</p>\n";
  std::map<std::string, std::vector<RecordedResult>> results_of;  // per runner, read once
  size_t drawn = 0;
  for (const auto& key : order) {
    if (drawn == max_series) break;
    const auto& [runner, op] = key;
    const auto& runs = runs_of[runner];
    if (!results_of.contains(runner)) results_of[runner] = store.results(runner);
    std::map<int64_t, size_t> index;
    for (size_t i = 0; i < runs.size(); ++i) index[runs[i].id] = i;
    std::vector<std::optional<double>> points(runs.size());
    for (const auto& r : results_of[runner]) {
      if (r.op == op && r.median_ms && !r.failed) points[index.at(r.run)] = *r.median_ms;
    }
    std::vector<html::LineMarker> markers;
    std::set<size_t> at_step;
    std::vector<html::Level> levels;
    size_t from = 0;
    for (const Step* s : steps_of[key]) {
      at_step.insert(s->run_index);
      markers.push_back({s->run_index, fmt::format("{} {}", name_of(kStepKinds, s->kind), s->change.before > 0
                                                                ? fmt::format("{:+.1f}%", 100 * s->change.step()) : ""),
                         s->regression() ? "#b3261e" : "#1a7f37", false});
      if (s->change.before > 0) {
        levels.push_back({from, s->run_index, s->change.before});
        levels.push_back({s->run_index, runs.size(), s->change.after});
        from = s->run_index;
      }
    }
    for (size_t i = 1; i < runs.size(); ++i) {
      const std::string c = short_change(runs[i - 1].environment, runs[i].environment);
      if (!c.empty() && !at_step.contains(i)) markers.push_back({i, c, "#8a8f98", true});
    }
    const Step& first = *steps_of[key].front();
    b += fmt::format("<h3><code>{}</code> on {} ({})</h3>\n", html::escape(op), html::escape(runner), html::escape(first.device_name));
    for (const Step* s : steps_of[key]) {
      b += fmt::format("<p class=\"{}\">{} {} at run {} of {} ({}; {})</p>\n", s->regression() ? "regression" : "note",
                       html::escape(std::string(name_of(kStepKinds, s->kind))), html::escape(s->what), s->run_index + 1,
                       s->runner_runs, html::escape(s->started_at), html::escape(s->environment_change));
    }
    b += html::svg_line_chart(points, " ms", markers, levels);
    ++drawn;
  }
  if (order.size() > drawn) {
    b += fmt::format("<p class=\"note\">{} more series with steps are not drawn (the JSON lists every step).</p>\n",
                     order.size() - drawn);
  }
  return html::page("archbench history: " + title, b);
}

}  // namespace archbench::history
