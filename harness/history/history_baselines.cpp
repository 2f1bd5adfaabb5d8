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
      why = a.failed != b.failed ? fmt::format("{} {} at run {}", b.op, b.failed ? "failing" : "passing again", pos + 1)
                                 : fmt::format("an image change of {} at run {} ({} -> {})", b.op, pos + 1, a.image, b.image);
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
    if (!runner.starts_with("GPU-")) {  // describe_run's "host/index": no UUID to name its baseline by
      out.skipped.push_back({runner, device, "its runs record no GPU UUID, so no runner baseline can name it"});
      continue;
    }
    const auto [start, after] = segment_start(store, runner, runs, steps);
    // The newest runs of the segment that kept their results, of the newest run's device, build and
    // operator set (a --filter or --dtype run would narrow the pool to its subset).
    std::vector<DeviceResults> pooled;
    size_t first = runs.size(), last = 0;
    size_t kept = 0;
    std::vector<std::string> ids;
    const size_t limit = std::max(rules.max_runs, rules.min_runs);
    for (size_t i = runs.size(); i-- > start && pooled.size() < limit;) {
      auto d = store.device_results(runs[i].id);
      if (!d) continue;
      std::vector<std::string> these;
      for (const auto& op : d->operators) these.push_back(op.id);
      std::ranges::sort(these);
      if (!pooled.empty()) {
        // An older build or another device under one UUID ends the segment for pooling; a narrower run is left out.
        if (d->key != pooled.front().key || !build_difference(pooled.front().build, d->build).empty()) break;
        if (these != ids) continue;
      } else {
        ids = these;
        last = i;
      }
      ++kept;
      pooled.push_back(std::move(*d));
      first = i;
    }
    const size_t since_change = runs.size() - start;
    if (pooled.size() < rules.min_runs) {
      out.skipped.push_back({runner, device,
                             fmt::format("{} run(s) since {}, {} of them with kept results of the newest build and "
                                         "operator set; a baseline needs {}",
                                         since_change, after, kept, rules.min_runs)});
      continue;
    }
    std::reverse(pooled.begin(), pooled.end());  // oldest first, as run files are given
    RunnerBaseline b;
    b.runner = runner;
    b.device_name = device;
    b.pooled_runs = pooled.size();
    b.first_run = first;
    b.last_run = last;
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
