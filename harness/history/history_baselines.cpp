#include "harness/history/history_baselines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>

namespace archbench::history {
namespace {

// Where the runner's current segment starts (0-based among its runs) and what starts it.
std::pair<size_t, std::string> segment_start(const HistoryStore& store, const std::string& runner,
                                             const std::vector<RecordedRun>& runs, const std::vector<Step>& steps) {
  size_t start = 0;
  std::string why = "its first run";
  for (const auto& s : steps) {
    if (s.runner == runner && s.run_index >= start && s.run_index > 0) {
      start = s.run_index;
      why = fmt::format("a {} step of {} at run {}", name_of(kStepKinds, s.kind), s.op, s.run_index + 1);
    }
  }
  // An image or pass/fail change anywhere in the series starts a segment too (check_history looks
  // only at the newest two runs for those).
  std::map<int64_t, size_t> index;
  for (size_t i = 0; i < runs.size(); ++i) index[runs[i].id] = i;
  const auto results = store.results(runner);  // by operator, in run order
  for (size_t i = 1; i < results.size(); ++i) {
    const auto& a = results[i - 1];
    const auto& b = results[i];
    if (a.op != b.op || (a.image == b.image && a.failed == b.failed)) continue;
    const size_t pos = index.at(b.run);
    if (pos > start) {
      start = pos;
      why = fmt::format("an image change of {} at run {} ({} -> {})", b.op, pos + 1, a.image, b.image);
    }
  }
  return {start, why};
}

}  // namespace

HistoryBaselines baselines_from_history(const HistoryStore& store, const BaselineRules& rules) {
  std::map<std::string, std::vector<RecordedRun>> by_runner;
  for (auto& r : store.runs()) by_runner[r.runner].push_back(std::move(r));
  CheckRules all;
  all.change_points = rules.change_points;
  all.recent_runs = std::numeric_limits<size_t>::max();
  const auto steps = check_history(store, all);
  HistoryBaselines out;
  for (const auto& [runner, runs] : by_runner) {
    const std::string device = runs.back().device_name;
    const auto [start, after] = segment_start(store, runner, runs, steps);
    // The newest runs of the segment that kept their results, of the newest run's build.
    std::vector<DeviceResults> pooled;
    size_t first = runs.size();
    size_t kept = 0;
    nlohmann::json build;
    for (size_t i = runs.size(); i-- > start && pooled.size() < rules.max_runs;) {
      auto d = store.device_results(runs[i].id);
      if (!d) continue;
      ++kept;
      if (pooled.empty()) build = d->build;
      if (!build_difference(build, d->build).empty()) break;  // an older build: the segment ends for pooling
      pooled.push_back(std::move(*d));
      first = i;
    }
    const size_t since_change = runs.size() - start;
    if (pooled.size() < rules.min_runs) {
      out.skipped.push_back({runner, device,
                             fmt::format("{} run(s) since {} ({} of them with kept results, {} of the newest build); "
                                         "a baseline needs {}",
                                         since_change, after, kept, pooled.size(), rules.min_runs)});
      continue;
    }
    std::reverse(pooled.begin(), pooled.end());  // oldest first, as run files are given
    RunnerBaseline b;
    b.runner = runner;
    b.device_name = device;
    b.pooled_runs = pooled.size();
    b.first_run = first;
    b.runner_runs = runs.size();
    b.since = runs[first].started_at;
    b.after = after;
    try {
      b.baseline = merge_runs(pooled);
    } catch (const StoredFileError& e) {
      out.skipped.push_back({runner, device, std::string("its runs cannot be pooled: ") + e.what()});
      continue;
    }
    out.made.push_back(std::move(b));
  }
  return out;
}

}  // namespace archbench::history
