#include "tools/archbench/phase_runner.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "harness/ops/registry.hpp"
#include "harness/run/error_oracle.hpp"
#include "harness/run/phases.hpp"

namespace archbench::cli {
namespace {

DeadlineFn deadlines_of(const PhasePlan& plan) {
  std::map<std::string, double> seconds;
  for (const auto* op : plan.ops) {
    seconds[op->id()] = plan.op_timeout_s ? *plan.op_timeout_s
                                          : operator_deadline_s(*op, plan.worker.task.phase, plan.extra_deadline_s);
  }
  return [seconds = std::move(seconds)](const std::string& id) {
    auto it = seconds.find(id);
    return it != seconds.end() ? it->second : 600.0;
  };
}

// What a worker reported for `r`, or why nothing was: the fault it died of, the failure that
// stopped the phase before it, or that it was never reported (never a silent blank).
void settle(OperatorResult& r, const WorkerOutcome& outcome, const std::map<std::string, const OperatorResult*>& by_id,
            Phase phase) {
  if (auto it = by_id.find(r.id); it != by_id.end()) {
    r = *it->second;
  } else if (auto f = std::ranges::find(outcome.faults, r.id, &OperatorFault::id); f != outcome.faults.end()) {
    r.fault = f->fault;
    r.error = f->error;
  } else {
    r.error = outcome.failure.empty() ? "not reported by the " + std::string(phase_name(phase)) + " worker"
                                      : outcome.failure + " before reporting this operator";
  }
}

}  // namespace

double operator_deadline_s(const Operator& op, Phase phase, double extra_s) {
  const double pessimistic = std::max(op.spec().flops / 10e12, op.spec().bytes / 200e9);
  return (phase == Phase::Check ? 120.0 : 60.0) + extra_s + 100.0 * pessimistic;
}

PhaseOutcome run_device_phase(const PhasePlan& plan, RunProgress& progress) {
  if (!plan.prior.empty() && plan.prior.size() != plan.ops.size()) {
    throw std::logic_error("run_device_phase: one prior record per operator, or none");
  }
  std::vector<OperatorResult> records = plan.prior;
  if (records.empty()) std::ranges::transform(plan.ops, std::back_inserter(records), [](const Operator* op) { return describe(*op); });
  WorkerRequest request = plan.worker;
  request.task.operators = records;
  const Phase phase = request.task.phase;
  request.deadline_s = deadlines_of(plan);
  request.on_event = progress.listener();

  const auto start = std::chrono::steady_clock::now();
  progress.begin_phase(request.task.device, plan.label, phase, records.size());
  const WorkerOutcome outcome = plan.workers > 1 ? run_phase_parallel(request, plan.workers) : run_phase(request);
  progress.end_phase();

  PhaseOutcome out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.failure = outcome.failure;
  out.ceilings = outcome.ceilings;
  out.load_ms = outcome.load_ms;
  std::map<std::string, const OperatorResult*> by_id;
  for (const auto& r : outcome.results) by_id[r.id] = &r;
  for (OperatorResult& r : records) {
    settle(r, outcome, by_id, phase);
    out.results.push_back(std::move(r));
  }
  if (phase == Phase::Check) apply_error_oracle(out.results, registry());
  return out;
}

}  // namespace archbench::cli
