#include "harness/history/history_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>

namespace archbench::history {

std::string environment_change(const nlohmann::json& before, const nlohmann::json& after) {
  std::vector<std::string> parts;
  for (const auto& [key, value] : after.items()) {
    const auto old = before.find(key);
    const std::string was = old == before.end() ? "(none)" : old->is_string() ? old->get<std::string>() : old->dump();
    const std::string now = value.is_string() ? value.get<std::string>() : value.dump();
    if (was != now) parts.push_back(fmt::format("{} {} -> {}", key, was, now));
  }
  for (const auto& [key, value] : before.items()) {
    if (!after.contains(key)) parts.push_back(fmt::format("{} {} -> (none)", key, value.is_string() ? value.get<std::string>() : value.dump()));
  }
  if (parts.empty()) return "no recorded change";
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s;
}

namespace {

// The steps of one runner's series (its results by operator, in run order).
std::vector<Step> check_runner(const std::string& runner, const std::vector<RecordedRun>& runs,
                               const std::vector<RecordedResult>& results, const CheckRules& rules) {
  std::vector<Step> out;
  std::map<int64_t, size_t> index;  // run id -> position among the runner's runs
  for (size_t i = 0; i < runs.size(); ++i) index[runs[i].id] = i;
  const size_t first_recent = runs.size() > rules.recent_runs ? runs.size() - rules.recent_runs : 0;
  for (size_t b = 0; b < results.size();) {
    size_t e = b;
    while (e < results.size() && results[e].op == results[b].op) ++e;
    auto step_at = [&](StepKind kind, size_t run_pos) {
      Step s;
      s.kind = kind;
      s.runner = runner;
      s.device_name = runs[run_pos].device_name;
      s.op = results[b].op;
      s.run_index = run_pos;
      s.runner_runs = runs.size();
      s.started_at = runs[run_pos].started_at;
      s.environment_change = run_pos > 0 ? environment_change(runs[run_pos - 1].environment, runs[run_pos].environment)
                                         : "no earlier run";
      return s;
    };
    // Image and correctness: the newest run against the one before it.
    if (e - b >= 2) {
      const auto& prev = results[e - 2];
      const auto& last = results[e - 1];
      const size_t pos = index.at(last.run);
      if (prev.failed != last.failed) {
        Step s = step_at(last.failed ? StepKind::NowFails : StepKind::NowRuns, pos);
        s.what = fmt::format("image {} -> {}", prev.image, last.image);
        out.push_back(std::move(s));
      } else if (prev.image != last.image) {
        Step s = step_at(StepKind::ImageChanged, pos);
        s.what = fmt::format("image {} -> {}", prev.image, last.image);
        out.push_back(std::move(s));
      }
    }
    // Timing: the runs that were timed and passed, in order.
    std::vector<double> series;
    std::vector<size_t> positions;
    for (size_t i = b; i < e; ++i) {
      if (results[i].median_ms && !results[i].failed) {
        series.push_back(*results[i].median_ms);
        positions.push_back(index.at(results[i].run));
      }
    }
    for (const auto& cp : find_change_points(series, rules.change_points)) {
      const size_t pos = positions[cp.at];
      if (pos < first_recent) continue;
      Step s = step_at(cp.step() > 0 ? StepKind::Slower : StepKind::Faster, pos);
      s.change = cp;
      s.what = fmt::format("{:+.1f}% ({:.4g} -> {:.4g} ms)", 100 * cp.step(), cp.before, cp.after);
      out.push_back(std::move(s));
    }
    b = e;
  }
  return out;
}

}  // namespace

std::vector<Step> check_history(const HistoryStore& store, const CheckRules& rules) {
  std::map<std::string, std::vector<RecordedRun>> by_runner;
  for (auto& r : store.runs()) by_runner[r.runner].push_back(std::move(r));
  // Runners in parallel, one per core: the store is read under a lock (a PostgreSQL connection
  // serves one query at a time), the change points are found outside it; steps keep runner order.
  std::vector<const std::pair<const std::string, std::vector<RecordedRun>>*> work;
  for (const auto& entry : by_runner) work.push_back(&entry);
  std::vector<std::vector<Step>> per_runner(work.size());
  std::mutex store_lock;
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  auto worker = [&] {
    try {
      for (size_t i = next++; i < work.size(); i = next++) {
        std::vector<RecordedResult> results;
        {
          const std::lock_guard lock(store_lock);
          if (failure) return;
          results = store.results(work[i]->first);  // by operator, in run order
        }
        per_runner[i] = check_runner(work[i]->first, work[i]->second, results, rules);
      }
    } catch (...) {
      const std::lock_guard lock(store_lock);
      if (!failure) failure = std::current_exception();
    }
  };
  {
    const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, std::max<size_t>(1, work.size()));
    std::vector<std::jthread> pool;
    for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  }
  if (failure) std::rethrow_exception(failure);
  std::vector<Step> out;
  for (auto& steps : per_runner) std::ranges::move(steps, std::back_inserter(out));
  std::ranges::stable_sort(out, std::greater<>{}, [](const Step& s) { return s.regression(); });
  return out;
}

std::vector<FamilyStep> group_by_family(const std::vector<Step>& steps) {
  std::vector<FamilyStep> groups;
  std::vector<std::vector<double>> group_steps;
  for (const auto& s : steps) {
    const std::string family = s.op.substr(0, s.op.find('/'));
    auto same = [&](const FamilyStep& g) {
      return g.kind == s.kind && g.runner == s.runner && g.family == family && g.run_index == s.run_index;
    };
    auto it = std::ranges::find_if(groups, same);
    if (it == groups.end()) {
      groups.push_back({s.kind, s.runner, s.device_name, family, s.run_index, s.runner_runs, 0, 0, s.environment_change});
      group_steps.emplace_back();
      it = std::prev(groups.end());
    }
    ++it->operators;
    if (is_timing(s.kind)) {
      group_steps[static_cast<size_t>(it - groups.begin())].push_back(s.change.step());
    }
  }
  std::vector<FamilyStep> out;
  for (size_t i = 0; i < groups.size(); ++i) {
    if (groups[i].operators < 2) continue;
    auto& v = group_steps[i];
    if (!v.empty()) {
      std::ranges::nth_element(v, v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2));
      groups[i].median_step = v[v.size() / 2];
    }
    out.push_back(std::move(groups[i]));
  }
  return out;
}

}  // namespace archbench::history
