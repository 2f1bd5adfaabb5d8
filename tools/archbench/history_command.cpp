// `archbench history`: record runs in a store, merge stores, list them, and gate on change points
// (harness/history; docs/history.md).
#include <fmt/format.h>

#include <functional>
#include <iostream>
#include <memory>

#include "harness/history/history_check.hpp"
#include "harness/history/trend_page.hpp"
#include "harness/history/history_store.hpp"
#include "harness/report/stored_run.hpp"
#include "harness/util/text_wrap.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/shared_options.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/json_output.hpp"

namespace archbench::cli {
namespace {

struct HistoryOptions {
  std::vector<std::string> files;   // runs (add) or stores (merge)
  std::string store = "archbench-history.sqlite";
  size_t recent_runs = 14;          // check: steps among each runner's newest this many runs
  double min_step = 0.03;           // check: the smallest step that counts
  std::string json_path;
  std::string markdown_path;        // check: a Markdown summary for a CI job page
  std::string html_path;            // check: the trend page (harness/history/trend_page.hpp)
};

std::string short_runner(const std::string& runner) { return runner.starts_with("GPU-") ? runner.substr(0, 12) : runner; }

// history add (runs) and history merge (other stores): what was new, of what was seen.
int record(const HistoryOptions& o, bool merge) {
  auto store = history::HistoryStore::open(o.store, true);
  size_t added = 0, seen = 0;
  for (const auto& f : o.files) {
    if (merge) {
      const auto other = history::HistoryStore::open(f, false);
      seen += other.runs().size();
      added += store.merge_from(other);
    } else {
      const StoredRun run = load_stored_run(f);
      seen += run.devices.size();
      added += store.add(run);
    }
  }
  std::cout << fmt::format("{}: {} new run(s) of {} ({} recorded already)\n", history::store_label(o.store), added,
                           seen, seen - added);
  return kOk;
}

int list(const HistoryOptions& o) {
  const auto store = history::HistoryStore::open(o.store, false);
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

int check(const HistoryOptions& o) {
  const TextToStderr text_to_stderr(is_stdout(o.json_path));  // --json -: JSON alone on stdout
  const auto store = history::HistoryStore::open(o.store, false);
  // A store without runs has nothing to check, which is not a pass.
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
}

// An action's errors as archbench history reports them: a store or run it cannot use is bad input.
int guarded(const std::function<int()>& action) {
  try {
    return action();
  } catch (const std::exception& e) {
    std::cerr << text::wrap_text(std::string("archbench history: ") + e.what() + "\n");
    return kBadInput;
  }
}

}  // namespace

void add_history_command(CLI::App& app, Commands& commands) {
  auto o = std::make_shared<HistoryOptions>();
  CLI::App* cmd = app.add_subcommand("history", "a store of runs per runner: record, merge, list, gate on change points");
  cmd->require_subcommand(1);
  CLI::App* add = cmd->add_subcommand("add", "record runs (archbench run --json) in the store");
  add->add_option("runs", o->files, "run results")->required();
  CLI::App* merge = cmd->add_subcommand("merge", "copy the runs of other stores that this one lacks");
  merge->add_option("stores", o->files, "other stores")->required();
  CLI::App* list_cmd = cmd->add_subcommand("list", "the runners and their runs");
  CLI::App* check_cmd = cmd->add_subcommand("check", "change points in the newest runs; exit 1 on a slowdown or a new failure");
  check_cmd->add_option("--recent", o->recent_runs, "steps among each runner's newest N runs (default 14)");
  check_cmd->add_option("--min-step", o->min_step, "the smallest step that counts (default 0.03 = 3%)");
  add_json_option(check_cmd, o->json_path, "the steps", "archbench.history.check v1");
  check_cmd->add_option("--markdown", o->markdown_path, "write a Markdown summary (for a CI job summary)");
  value_name(check_cmd->add_option("--html", o->html_path, "write the trend page: each stepped series with its change points"),
             "FILE");
  for (CLI::App* action : {add, merge, list_cmd, check_cmd}) {
    action->add_option("--store", o->store, "the store (SQLite file; default archbench-history.sqlite)");
  }
  commands.push_back({add, [o] { return guarded([&] { return record(*o, false); }); }});
  commands.push_back({merge, [o] { return guarded([&] { return record(*o, true); }); }});
  commands.push_back({list_cmd, [o] { return guarded([&] { return cli::list(*o); }); }});
  commands.push_back({check_cmd, [o] { return guarded([&] { return cli::check(*o); }); }});
}

}  // namespace archbench::cli
