// archbench compare: a run against the stored baseline of its device, the CI gate.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/ops/id_filter.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <iostream>
#include <map>
#include <ostream>
#include <streambuf>
#include <nlohmann/json.hpp>

#include "harness/baseline/compare.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/shared_options.hpp"
#include "harness/util/text_wrap.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/json_output.hpp"

namespace archbench::cli {
namespace {

struct CompareOptions {
  std::string baseline;
  std::string results;
  std::string thresholds;
  std::string json_path;
  std::string filter = "*";  // compare only operators whose id matches (both sides)
  bool floor_correction = true;  // take the timer-floor shift out before judging (compare.hpp)
  std::string confirm;            // a later run of (at least) the slower operators: confirm_slowdowns
  bool list_slower = false;       // print only the slower operators' ids, comma-separated (a --filter)
};

struct DeviceComparison {
  int regressions = 0;
  std::vector<std::string> slower;  // ids judged slower (after any confirmation)
  nlohmann::json json;
};

// Discards what is written to it: compare --list-slower prints the ids and nothing else.
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
};

// One device's results against its baseline: the table, the summary and its JSON rows.
// `rerun`, when given, is the same device's re-run (--confirm).
DeviceComparison compare_device(const CompareOptions& o, const std::string& baseline_path,
                                const DeviceResults& baseline, const DeviceResults& now, const Thresholds& thresholds,
                                const DeviceResults* rerun, std::ostream& log) {
  const int index = now.device.index;
  log << fmt::format("compare {} (device {}, {}) against baseline {}\n", o.results, index, now.key, baseline_path);
  if (auto diff = build_difference(baseline.build, now.build); !diff.empty()) {
    log << "note: the builds differ (" << diff << "); image verdicts are compared as they are\n";
  }
  // --filter narrows both sides alike, so a partial run is not reported as "absent".
  auto keep = [&](std::vector<OperatorResult>& ops) {
    std::erase_if(ops, [&](const OperatorResult& r) { return !id_matches(o.filter, r.id); });
  };
  DeviceResults base_part = baseline;
  DeviceResults current = now;
  keep(base_part.operators);
  keep(current.operators);
  std::string selection;  // what --filter left out, said in the summary: a narrowed gate checks less
  if (o.filter != "*") {
    selection = fmt::format("--filter '{}' kept {} of the baseline's {} and {} of the results' {} operator(s); the "
                            "rest were not compared", o.filter, base_part.operators.size(),
                            baseline.operators.size(), current.operators.size(), now.operators.size());
  } else if (now.selection && now.selection->narrowed()) {
    log << fmt::format("note: {} is a run of {}; compare with the same --filter, or the operators it left out "
                       "count as absent\n", o.results, now.selection->describe());
  }
  const auto floor_shift = timer_floor_shift_ms(baseline, now);
  nlohmann::json floor_json = nullptr;
  if (floor_shift) {
    const bool applied = o.floor_correction;
    log << fmt::format("timer floor: baseline {:.2f} us, now {:.2f} us ({:+.2f} us per single-launch sample{})\n",
                       *baseline.timer_floor_ms * 1e3, *now.timer_floor_ms * 1e3, *floor_shift * 1e3,
                       applied ? ", taken out before judging" : "; --no-floor-correction: compared as measured");
    // A machine's fixed overhead moving by more than a microsecond is worth knowing in itself (a
    // driver or virtualisation change every launch pays), though no kernel got slower.
    if (std::abs(*floor_shift) > 0.5e-3) {
      log << fmt::format("note: this machine's fixed per-launch overhead differs from the baseline's by {:+.2f} us; "
                         "launch-bound workloads see it, the kernels themselves are judged without it\n",
                         *floor_shift * 1e3);
    }
    floor_json = {{"baseline_ms", *baseline.timer_floor_ms}, {"now_ms", *now.timer_floor_ms},
                  {"shift_ms", *floor_shift}, {"taken_out", applied}};
  } else {
    log << fmt::format("note: no timer floor in the {} (written before archbench measured it): times compared as "
                       "measured, so another machine's fixed per-launch overhead reads as a change of the "
                       "smallest operators\n",
                       baseline.timer_floor_ms ? "results" : (now.timer_floor_ms ? "baseline" : "baseline or results"));
  }
  // Unstable variants are judged on the whole baseline, not on the part the filter kept.
  auto rows = compare_results(base_part, current, thresholds, &baseline, o.floor_correction);
  nlohmann::json confirm_json = nullptr;
  if (rerun != nullptr) {
    // The re-run is judged against the same baseline, narrowed to the operators it holds.
    DeviceResults rerun_part = *rerun;
    keep(rerun_part.operators);
    DeviceResults rerun_base = base_part;
    std::erase_if(rerun_base.operators, [&](const OperatorResult& b) {
      return std::ranges::find(rerun_part.operators, b.id, &OperatorResult::id) == rerun_part.operators.end();
    });
    const auto again = compare_results(rerun_base, rerun_part, thresholds, &baseline, o.floor_correction);
    const auto slower_before = std::ranges::count(rows, Change::Slower, &Comparison::change);
    const int unconfirmed = confirm_slowdowns(rows, again);
    log << fmt::format("re-run: {} ({} operator(s)); {} of {} slower operator(s) slower again, {} not\n", o.confirm,
                       rerun_part.operators.size(), slower_before - unconfirmed, slower_before, unconfirmed);
    confirm_json = {{"rerun", o.confirm}, {"operators", rerun_part.operators.size()},
                    {"slower_before", slower_before}, {"unconfirmed", unconfirmed}};
  }
  std::map<Change, int> counts;
  int clock_explained = 0;
  DeviceComparison out;
  nlohmann::json ops = nlohmann::json::array();
  // The real changes first, then the rest; operators absent from the results are one line (a
  // partial run would otherwise bury its few rows under hundreds of them). Rows wrap at 120 columns.
  auto rank = [](const Comparison& r) {
    if (r.change == Change::Absent) return 3;
    if (r.regression()) return 0;
    return r.change == Change::Same ? 2 : 1;
  };
  std::vector<const Comparison*> shown;
  for (const auto& r : rows) shown.push_back(&r);
  std::ranges::stable_sort(shown, {}, [&](const Comparison* r) { return rank(*r); });
  log << fmt::format("{:<46} {:<22} {}\n", "operator", "change", "detail");
  size_t absent = 0;
  for (const Comparison* r : shown) {
    if (r->change == Change::Absent) {
      ++absent;
      continue;
    }
    log << text::wrap(fmt::format("{:<46} {:<22} {}", r->id, change_name(r->change), r->detail), text::kColumns, "",
                      std::string(8, ' '));
  }
  if (absent > 0) {
    const std::string hint =
        now.selection && now.selection->narrowed() && o.filter == "*"
            ? fmt::format("these results are a run of {}: compare with --filter '{}' to judge only what ran",
                          now.selection->describe(), now.selection->filter)
            : std::string("left out by the run's --filter (compare with the same --filter), or removed from the "
                          "registry; --json lists them");
    log << text::wrap(fmt::format("{} operator(s) of the baseline are absent from these results, each a regression ({})",
                                  absent, hint),
                      text::kColumns, "", std::string(8, ' '));
  }
  for (const auto& r : rows) {
    ++counts[r.change];
    clock_explained += r.clock_explained ? 1 : 0;
    out.regressions += r.regression() ? 1 : 0;
    if (r.change == Change::Slower) out.slower.push_back(r.id);
    ops.push_back({{"id", r.id}, {"change", change_name(r.change)}, {"regression", r.regression()}, {"effect", r.effect},
                   {"p_value", r.p_value}, {"cycles_effect", r.cycles_effect}, {"base_ms", r.base_ms},
                   {"now_ms", r.now_ms}, {"clock_explained", r.clock_explained}, {"detail", r.detail}});
  }
  std::string summary;
  for (const auto& [change, n] : counts) summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", n, change_name(change));
  if (!selection.empty()) log << "selection: " << selection << "\n";
  log << fmt::format("summary: {}; {} regression(s) -> {}\n", summary, out.regressions,
                     out.regressions ? "FAIL" : "PASS");
  if (const int n = counts[Change::TimingModeChanged]; n > 0) {
    log << fmt::format("note: {} operator(s) timed by CUDA-graph replay on one side and single launches on the "
                       "other: their times were not compared (not counted as regressions)\n", n);
  }
  if (clock_explained > 0) {
    log << fmt::format("note: {} operator(s) changed beyond the margin in time but not in cycles: the SM clock "
                       "differed (a power cap or another clock setting: see sm_mhz and event_reasons in the "
                       "results); not counted as regressions\n", clock_explained);
  }
  if (const int n = counts[Change::Unconfirmed]; n > 0) {
    log << fmt::format("note: {} operator(s) slower in the first run only, not in the re-run: a disturbance of that "
                       "run (not counted as regressions)\n", n);
  }
  if (const int n = counts[Change::Unstable]; n > 0) {
    log << fmt::format("note: {} operator(s) unstable: their baseline runs disagree by more than max_spread, so "
                       "their times are shown but not gated (not counted as regressions)\n", n);
  }
  out.json = {{"device_index", index}, {"device_key", now.key}, {"baseline", baseline_path},
              {"timer_floor", floor_json}, {"confirm", confirm_json}, {"operators", ops}};
  return out;
}

// Every device in the results is compared (a `run --device all` file holds several); a device
// without a baseline is an error, never a silent pass.
int compare_command(const CompareOptions& o) {
  if (o.list_slower && is_stdout(o.json_path)) {
    std::cerr << "archbench compare: --list-slower and --json - cannot both write to stdout\n";
    return kUsage;
  }
  const TextToStderr text_to_stderr(is_stdout(o.json_path));  // --json -: JSON alone on stdout
  std::vector<DeviceResults> results;
  Thresholds thresholds;
  std::map<std::string, DeviceResults> loaded;                         // by path
  std::vector<std::pair<std::string, const DeviceResults*>> baselines;  // per device of `results`, in order
  std::vector<DeviceResults> reruns;                                    // --confirm
  std::vector<const DeviceResults*> rerun_of;                           // per device of `results`
  try {
    results = load_run_results(o.results);
    if (results.empty()) {
      std::cerr << "archbench compare: " << o.results << " holds no device's results (the run found no usable device)\n";
      return kBadInput;
    }
    if (!o.thresholds.empty()) thresholds = Thresholds::load(o.thresholds);
    for (const auto& d : results) {
      std::string path = o.baseline;
      if (std::filesystem::is_directory(o.baseline)) {  // a directory of baselines: this runner's, else its model's
        path = baseline_for_device_in(o.baseline, d.key, d.device.uuid);
        if (!std::filesystem::exists(path)) {
          std::cerr << "archbench compare: no baseline for " << d.key << " (device " << d.device.index
                    << ") in " << o.baseline << " (make one with archbench baseline update)\n";
          return kBadInput;
        }
      }
      if (!loaded.contains(path)) loaded.emplace(path, load_baseline(path));
      const DeviceResults& b = loaded.at(path);
      if (b.key != d.key) {
        std::cerr << fmt::format("archbench compare: {} is the baseline of {}, but device {} of {} is {}\n", path, b.key,
                                 d.device.index, o.results, d.key);
        return kBadInput;
      }
      baselines.emplace_back(path, &b);
    }
    if (o.filter != "*") {
      // A filter that keeps nothing would compare nothing and pass: a usage error, like run's.
      std::vector<std::string> ids;
      for (size_t i = 0; i < results.size(); ++i) {
        for (const DeviceResults* side : {static_cast<const DeviceResults*>(&results[i]), baselines[i].second}) {
          for (const auto& r : side->operators) ids.push_back(r.id);
        }
      }
      if (std::ranges::none_of(ids, [&](const std::string& id) { return id_matches(o.filter, id); })) {
        std::cerr << "archbench compare: "
                  << no_match_message(o.filter, ids, "operator of the results or the baseline",
                                      "`archbench list` shows the ids")
                  << "\n";
        return kUsage;
      }
    }
    if (!o.confirm.empty()) {
      reruns = load_run_results(o.confirm);
      for (const auto& d : results) {
        const int index = d.device.index;
        auto it = std::ranges::find_if(reruns, [&](const DeviceResults& r) {
          return r.key == d.key && r.device.index == index;
        });
        if (it == reruns.end()) {
          std::cerr << fmt::format("archbench compare: the re-run {} holds no results of device {} ({}); re-run on "
                                   "the same device\n", o.confirm, index, d.key);
          return kBadInput;
        }
        rerun_of.push_back(&*it);
      }
    }
  } catch (const StoredFileError& e) {
    std::cerr << "archbench compare: " << e.what() << "\n";
    return kBadInput;
  }
  NullBuffer discard;
  std::ostream quiet(&discard);
  std::ostream& log = o.list_slower ? quiet : std::cout;
  int regressions = 0;
  std::vector<std::string> slower;
  nlohmann::json devices = nlohmann::json::array();
  for (size_t i = 0; i < results.size(); ++i) {
    if (i > 0) log << "\n";
    DeviceComparison c = compare_device(o, baselines[i].first, *baselines[i].second, results[i], thresholds,
                                        rerun_of.empty() ? nullptr : rerun_of[i], log);
    regressions += c.regressions;
    for (auto& id : c.slower) {
      if (std::ranges::find(slower, id) == slower.end()) slower.push_back(std::move(id));
    }
    devices.push_back(std::move(c.json));
  }
  if (o.list_slower) std::cout << fmt::format("{}\n", fmt::join(slower, ","));
  if (results.size() > 1) {
    log << fmt::format("\n{} devices compared: {} regression(s) -> {}\n", results.size(), regressions,
                       regressions ? "FAIL" : "PASS");
  }
  if (!o.json_path.empty()) {
    // device_key and operators of the first device stay at the top (schema v1 as before); every
    // device is under "devices".
    nlohmann::json j{{"schema", "archbench.compare"}, {"schema_version", 1}, {"devices", devices}};
    if (!devices.empty()) {
      j["device_key"] = devices[0]["device_key"];
      j["operators"] = devices[0]["operators"];
    }
    if (!write_or_say("compare", o.json_path, j.dump(2) + "\n")) return kInternal;
  }
  if (o.list_slower) return kOk;  // a query: the ids are the answer
  return regressions > 0 ? kOperatorFailed : kOk;
}

}  // namespace

void add_compare_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(
      app, commands, "compare", "compare results with a baseline; non-zero exit on any regression", compare_command);
  add_baseline_option(cmd, o->baseline)->required();
  value_name(cmd->add_option("results", o->results, "results of archbench run --json"), "RESULTS")->required();
  add_thresholds_option(cmd, o->thresholds);
  add_json_option(cmd, o->json_path, "the comparison", "archbench.compare v1");
  add_filter_option(cmd, o->filter, "operator ids: compare only those (on both sides)");
  cmd->add_flag("!--no-floor-correction", o->floor_correction,
                "compare times as measured, without taking out the difference of the two machines' timer floors");
  value_name(cmd->add_option("--confirm", o->confirm,
                 "a later run of the slower operators (run --filter \"$(archbench compare ... --list-slower)\"): "
                 "a slowdown stands only if the re-run is slower too"), "FILE");
  cmd->add_flag("--list-slower", o->list_slower,
                "print only the ids of the operators judged slower, comma-separated, for run --filter; exit 0");
}

}  // namespace archbench::cli
