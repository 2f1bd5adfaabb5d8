// One phase on one device, as `archbench run` (check, then time) and `archbench doctor` (check,
// no-JIT, forced-JIT) both run it: the workers spawned and supervised (worker_process.hpp) with
// per-operator progress; their results merged in operator order; every operator no worker
// reported given the reason; and after a check, the error oracle (own low-precision kernels held
// to their library twin's error, error_oracle.hpp).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/ops/operator.hpp"
#include "harness/result/result.hpp"
#include "tools/archbench/progress.hpp"
#include "tools/archbench/worker_process.hpp"

namespace archbench::cli {

struct PhasePlan {
  std::string label;      // in the progress: "check", "time", "no-jit", "forced-jit"
  WorkerRequest worker;   // the task's phase, device, seed and options; the runner sets its operators and deadlines
  std::vector<const Operator*> ops;
  // The records the workers complete, one per operator of `ops` in its order: the time phase passes
  // the checked results. Empty: each operator's bare description (describe(), a check).
  std::vector<OperatorResult> prior;
  std::optional<double> op_timeout_s;  // --op-timeout: replaces every operator's deadline
  double extra_deadline_s = 0;         // added to each deadline (JIT-compiling a module takes minutes)
  int workers = 1;                     // worker processes at once (a check: check_workers(); timing: one)
};

struct PhaseOutcome {
  std::vector<OperatorResult> results;  // one per operator of the plan, in its order
  std::string failure;                  // a worker failure that stopped the phase, or empty
  std::optional<Ceilings> ceilings;     // the time phase's measured ceilings
  std::map<std::string, double> load_ms;
  double seconds = 0;                   // wall time of the phase
};

[[nodiscard]] PhaseOutcome run_device_phase(const PhasePlan& plan, RunProgress& progress);

// Seconds an operator may take before its worker is declared hung: a base for the phase (a check
// includes the float64 CPU reference; the timer caps each operator at about a second) plus 100x a
// pessimistic GPU time at the benchmark shape (10 TFLOP/s, 200 GB/s), plus `extra_s`.
[[nodiscard]] double operator_deadline_s(const Operator& op, Phase phase, double extra_s);

}  // namespace archbench::cli
