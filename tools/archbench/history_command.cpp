// `archbench history`: record runs in a store, merge stores, list them, and gate on change points
// (harness/history; docs/history.md).
#include <fmt/format.h>

#include <iostream>

#include "harness/history/history_check.hpp"
#include "harness/history/trend_page.hpp"
#include "harness/history/history_store.hpp"
#include "harness/report/stored_run.hpp"
#include "harness/util/text_wrap.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/json_output.hpp"

namespace archbench::cli {
namespace {

std::string short_runner(const std::string& runner) { return runner.starts_with("GPU-") ? runner.substr(0, 12) : runner; }

}  // namespace

int history_command(const HistoryOptions& o) {
  try {
    if (o.action == "add" || o.action == "merge") {
      auto store = history::HistoryStore::open(o.store, true);
      size_t added = 0, seen = 0;
      for (const auto& f : o.files) {
        if (o.action == "add") {
          const StoredRun run = load_stored_run(f);
          seen += run.devices.size();
          added += store.add(run);
        } else {
          const auto other = history::HistoryStore::open(f, false);
          seen += other.runs().size();
          added += store.merge_from(other);
        }
      }
      std::cout << fmt::format("{}: {} new run(s) of {} ({} recorded already)\n", history::store_label(o.store), added,
                               seen, seen - added);
      return kOk;
    }
    const auto store = history::HistoryStore::open(o.store, false);
    if (o.action == "list") {
      text::Table t({{"runner"}, {"device"}, {"runs", true}, {"first"}, {"last"}, {"revision (last)"}});
      std::map<std::string, std::vector<history::RecordedRun>> by;
      for (auto& r : store.runs()) by[r.runner].push_back(std::move(r));
      for (const auto& [runner, runs] : by) {
        t.add_row({short_runner(runner), runs.back().device_name, std::to_string(runs.size()), runs.front().started_at,
                   runs.back().started_at, runs.back().environment.value("revision", "")});
      }
      std::cout << t.render();
      return kOk;
    }
    // check. A store without runs has nothing to check, which is not a pass.
    if (store.runs().empty()) {
      std::cout << "history check: " << history::store_label(o.store) << " holds no run: nothing checked -> FAIL\n";
      return kOperatorFailed;
    }
    history::CheckRules rules;
    rules.recent_runs = o.recent_runs;
    rules.change_points.min_step = o.min_step;
    const auto steps = history::check_history(store, rules);
    const auto families = history::group_by_family(steps);
    auto family_line = [](const history::FamilyStep& f) {
      const std::string step = history::is_timing(f.kind) ? fmt::format(": median {:+.1f}%", 100 * f.median_step) : "";
      return fmt::format("{} {}: {} operators on {} ({}) at run {} of {}{} ({})", name_of(history::kStepKinds, f.kind),
                         f.family, f.operators, short_runner(f.runner), f.device_name, f.run_index + 1, f.runner_runs,
                         step, f.environment_change);
    };
    nlohmann::json families_js = nlohmann::json::array();
    for (const auto& f : families) {
      std::cout << text::wrap(family_line(f), text::kColumns, "", "    ");
      families_js.push_back({{"kind", name_of(history::kStepKinds, f.kind)}, {"family", f.family}, {"runner", f.runner},
                             {"device", f.device_name}, {"run", f.run_index + 1}, {"runs", f.runner_runs},
                             {"operators", f.operators}, {"median_step", f.median_step},
                             {"environment_change", f.environment_change}});
    }
    if (!families.empty()) std::cout << "\n";
    size_t regressions = 0;
    nlohmann::json js = nlohmann::json::array();
    for (const auto& s : steps) {
      regressions += s.regression();
      std::cout << text::wrap(fmt::format("{} {} on {} ({}): {} at run {} of {} ({}; {})",
                                          name_of(history::kStepKinds, s.kind), s.op, short_runner(s.runner), s.device_name,
                                          s.what, s.run_index + 1, s.runner_runs, s.started_at, s.environment_change),
                              text::kColumns, "", "    ");
      js.push_back({{"kind", name_of(history::kStepKinds, s.kind)}, {"operator", s.op}, {"runner", s.runner},
                    {"device", s.device_name}, {"run", s.run_index + 1}, {"runs", s.runner_runs}, {"what", s.what},
                    {"started_at", s.started_at}, {"environment_change", s.environment_change},
                    {"p_value", s.change.p_value}, {"regression", s.regression()}});
    }
    std::cout << fmt::format("history check: {} step(s) in the newest {} runs of each runner, {} regression(s) -> {}\n",
                             steps.size(), rules.recent_runs, regressions, regressions == 0 ? "PASS" : "FAIL");
    if (!o.json_path.empty()) {
      write_output(o.json_path, nlohmann::json{{"schema", "archbench.history.check"}, {"schema_version", 1},
                                               {"families", families_js}, {"steps", js},
                                               {"regressions", regressions}}.dump(2) + "\n");
    }
    if (!o.html_path.empty()) write_output(o.html_path, history::trend_page(store, steps, history::store_label(o.store)));
    if (!o.markdown_path.empty()) {  // a CI job summary: one table row per step, regressions first
      auto cell = [](std::string t) {
        for (size_t at = t.find('|'); at != std::string::npos; at = t.find('|', at + 2)) t.replace(at, 1, "\\|");
        return t;
      };
      std::string md = fmt::format("## archbench history check\n\n{} step(s) in the newest {} runs of each runner, {} "
                                   "regression(s): **{}**\n",
                                   steps.size(), rules.recent_runs, regressions, regressions == 0 ? "PASS" : "FAIL");
      if (!families.empty()) md += "\n";
      for (const auto& f : families) md += "- " + cell(family_line(f)) + "\n";
      if (!steps.empty()) {
        md += "\n| step | operator | runner | change | at run | environment change |\n|---|---|---|---|---|---|\n";
        for (const auto& st : steps) {
          md += fmt::format("| {} | `{}` | {} ({}) | {} | {} of {} ({}) | {} |\n", name_of(history::kStepKinds, st.kind),
                            st.op, short_runner(st.runner), cell(st.device_name), cell(st.what), st.run_index + 1,
                            st.runner_runs, st.started_at, cell(st.environment_change));
        }
      }
      write_output(o.markdown_path, md);
    }
    return regressions == 0 ? kOk : kOperatorFailed;
  } catch (const history::HistoryError& e) {
    std::cerr << text::wrap_text(std::string("archbench history: ") + e.what() + "\n");
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << text::wrap_text(std::string("archbench history: ") + e.what() + "\n");
    return kBadInput;
  }
}

}  // namespace archbench::cli
