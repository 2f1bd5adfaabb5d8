// Baselines rebuilt from the history (`archbench baseline update --from-history`): per runner (GPU
// UUID), the runs since its last change point, pooled as `baseline update` pools run files. A
// runner's baseline then describes that chip as it is now, not a pool of several chips or of the
// runs before an accepted change (docs/history.md, "Baselines from the history").
#pragma once

#include <string>
#include <vector>

#include "harness/history/history_check.hpp"
#include "harness/history/history_store.hpp"

namespace archbench::history {

struct BaselineRules {
  size_t min_runs = 5;    // runs since the last change point with kept results, at least (<= kKeptResultsPerRunner)
  size_t max_runs = 20;   // the newest this many of them (or min_runs, if more)
  ChangePointRules change_points;
};

struct RunnerBaseline {
  std::string runner, device_name;
  size_t pooled_runs = 0;
  size_t first_run = 0;     // 0-based among the runner's runs: the oldest one pooled
  size_t last_run = 0;      // and the newest
  size_t runner_runs = 0;
  std::string since;        // started_at of the first run pooled
  std::string after;        // what starts the segment: "a change point of norm/... at run 9" or "its first run"
  DeviceResults baseline;
};

struct SkippedRunner {
  std::string runner, device_name, why;
};

struct HistoryBaselines {
  std::vector<RunnerBaseline> made;
  std::vector<SkippedRunner> skipped;
};

// Every runner of the store. The segment a runner's baseline pools starts at the newest of: any
// operator's last timing change point (change_points.hpp, over all its runs), any change of an
// operator's image or pass/fail; of the runs from there on, those with kept results, of the newest
// run's device, build and operator set, the newest max_runs. Fewer than min_runs, or no GPU UUID:
// skipped, saying why.
[[nodiscard]] HistoryBaselines baselines_from_history(const HistoryStore& store, const BaselineRules& rules = {});

}  // namespace archbench::history
