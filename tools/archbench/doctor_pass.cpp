#include "tools/archbench/doctor_pass.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "harness/ops/registry.hpp"
#include "harness/result/result.hpp"
#include "harness/run/error_oracle.hpp"
#include "harness/run/phases.hpp"
#include "tools/archbench/worker_process.hpp"

namespace archbench::cli {
namespace {

// As `archbench run`: a base for the check (it includes the CPU reference) plus 100x a pessimistic
// GPU time at the benchmark shape; JIT-compiling a whole module may add minutes.
DeadlineFn doctor_deadline(const std::vector<const Operator*>& ops, double extra_s) {
  std::map<std::string, double> seconds;
  for (const auto* op : ops) {
    const double pessimistic = std::max(op->spec().flops / 10e12, op->spec().bytes / 200e9);
    seconds[op->id()] = 120.0 + extra_s + 100.0 * pessimistic;
  }
  return [seconds](const std::string& id) {
    auto it = seconds.find(id);
    return it == seconds.end() ? 600.0 : it->second;
  };
}

}  // namespace

doctor::PassResults run_doctor_pass(const DoctorPass& p, RunProgress& progress) {
  std::vector<std::string> ids;
  std::vector<OperatorResult> results;
  for (const auto* op : p.ops) {
    ids.push_back(op->id());
    results.push_back(describe(*op));
  }
  WorkerRequest req{"check", p.device, ids, p.seed, false, doctor_deadline(p.ops, p.extra_deadline_s), p.executable};
  req.env = p.env;
  req.load_times = true;
  req.probe_only = p.probe_only;
  req.quick = p.quick;
  req.on_event = progress.listener();
  progress.begin_phase(p.device, p.name, ids.size());
  // As run --quick: several workers at once when only the check shapes run.
  const WorkerOutcome outcome = p.quick ? run_phase_parallel(req, quick_check_workers(p.device_memory_bytes)) : run_phase(req);
  progress.end_phase();

  doctor::PassResults pass;
  pass.failure = outcome.failure;
  pass.load_ms = outcome.load_ms;
  std::map<std::string, const OperatorResult*> by_id;
  for (const auto& r : outcome.results) by_id[r.id] = &r;
  for (auto& r : results) {
    if (auto it = by_id.find(r.id); it != by_id.end()) {
      r = *it->second;
    } else if (auto f = std::ranges::find(outcome.faults, r.id, &OperatorFault::id); f != outcome.faults.end()) {
      r.fault = f->fault;
      r.error = f->error;
    } else {
      r.error = outcome.failure.empty() ? "not reported by the check worker"
                                        : outcome.failure + " before reporting this operator";
    }
  }
  // Own low-precision kernels must be about as accurate as their library twin, as in `archbench run`.
  apply_error_oracle(results, registry());
  pass.results = std::move(results);
  return pass;
}

}  // namespace archbench::cli
