#include "tools/archbench/doctor_pass.hpp"

#include <utility>

#include "tools/archbench/phase_runner.hpp"

namespace archbench::cli {

doctor::PassResults run_doctor_pass(const DoctorPass& p, RunProgress& progress) {
  PhasePlan plan;
  plan.label = p.name;
  plan.ops = p.ops;
  plan.extra_deadline_s = p.extra_deadline_s;
  plan.worker.task.phase = Phase::Check;
  plan.worker.task.device = p.device;
  plan.worker.task.seed = p.seed;
  plan.worker.executable = p.executable;
  plan.worker.env = p.env;
  plan.worker.task.load_times = true;
  plan.worker.task.probe_only = p.probe_only;
  plan.worker.task.quick = p.quick;
  // As run --quick: several workers at once when only the check shapes run. A --full pass keeps
  // one: it measures each operator's first module load, which other workers' loads would slow.
  plan.workers = p.quick ? check_workers(p.device_memory_bytes, true) : 1;
  PhaseOutcome outcome = run_device_phase(plan, progress);

  doctor::PassResults pass;
  pass.failure = std::move(outcome.failure);
  pass.load_ms = std::move(outcome.load_ms);
  pass.results = std::move(outcome.results);
  pass.seconds = outcome.seconds;
  return pass;
}

}  // namespace archbench::cli
