// What `archbench history check` gates on: per runner and operator, the change points of the
// timing series (change_points.hpp) with the environment change that came with each, and image or
// correctness changes between the newest two runs, which are change points by definition.
#pragma once

#include <string>
#include <vector>

#include "harness/history/change_points.hpp"
#include "harness/history/history_store.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench::history {

enum class StepKind { Slower, Faster, NowFails, NowRuns, ImageChanged };
inline constexpr auto kStepKinds = enum_names<StepKind>({
    {StepKind::Slower, "slower"},
    {StepKind::Faster, "faster"},
    {StepKind::NowFails, "now-fails"},
    {StepKind::NowRuns, "now-runs"},
    {StepKind::ImageChanged, "image-changed"},
});

// Slower and Faster are steps of a timing series; the others are image or pass/fail changes.
[[nodiscard]] constexpr bool is_timing(StepKind k) { return k == StepKind::Slower || k == StepKind::Faster; }

struct Step {
  StepKind kind = StepKind::Slower;
  std::string runner, device_name, op;
  size_t run_index = 0;     // the first run after it, 0-based among the runner's runs
  size_t runner_runs = 0;   // how many runs the runner has
  ChangePoint change;       // timing steps only
  std::string started_at;   // of the first run after it
  std::string environment_change;  // "revision a -> b; cuDNN 9.14.0 -> 9.19.0", or "no recorded change"
  std::string what;         // "image sass -> missing"
  [[nodiscard]] bool regression() const { return kind == StepKind::Slower || kind == StepKind::NowFails; }
};

struct CheckRules {
  ChangePointRules change_points;
  size_t recent_runs = 14;  // only steps whose first run is among a runner's newest this many
};

// Every step in the newest `recent_runs` of each runner, regressions first.
[[nodiscard]] std::vector<Step> check_history(const HistoryStore& store, const CheckRules& rules = {});

// Steps of one kind that a runner's operators of one family took at the same run: one cause (the family's
// code or library changed) reads as one line before the list of operators.
struct FamilyStep {
  StepKind kind = StepKind::Slower;
  std::string runner, device_name, family;  // family: the operator id's first component ("attention")
  size_t run_index = 0, runner_runs = 0;
  size_t operators = 0;                     // how many of the family's operators stepped there
  double median_step = 0;                   // timing steps: the median of their steps (+0.05 = 5% slower)
  std::string environment_change;
};

// The groups of two or more operators, in the steps' order (regressions first).
[[nodiscard]] std::vector<FamilyStep> group_by_family(const std::vector<Step>& steps);

// "revision a -> b; cuDNN 9.14.0 -> 9.19.0": the keys whose values differ; "no recorded change" when none.
[[nodiscard]] std::string environment_change(const nlohmann::json& before, const nlohmann::json& after);

}  // namespace archbench::history
