// One workload pass of `archbench doctor` on one device (the blocking pass, or a JIT pass), run in
// worker processes like `archbench run`'s check phase, with the same per-operator progress on
// stderr (progress.hpp): the workload layer takes minutes on a large GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/doctor/workload_layer.hpp"
#include "harness/ops/operator.hpp"
#include "tools/archbench/progress.hpp"

namespace archbench::cli {

struct DoctorPass {
  std::string name;  // shown in the progress: "check", "no-jit", "forced-jit"
  int device = 0;
  std::vector<const Operator*> ops;
  uint64_t seed = 0;
  // Set (a value) or removed (nullopt) in the workers before CUDA starts.
  std::vector<std::pair<std::string, std::optional<std::string>>> env;
  double extra_deadline_s = 0;  // JIT-compiling a whole module may add minutes
  bool probe_only = false;      // image probe only (the JIT passes), no correctness run
  std::string executable;       // the worker; empty: this executable (tests give a stand-in)
  bool quick = false;           // the check shapes only, as `archbench run --quick` (doctor's default)
  size_t device_memory_bytes = 0;  // sizes the quick tier's parallel workers
};

// Results in operator order; operators a worker died or hung on, or never reached, carry that as
// their error. Own low-precision kernels are held to their library twin's error, as in run.
[[nodiscard]] doctor::PassResults run_doctor_pass(const DoctorPass& pass, RunProgress& progress);

}  // namespace archbench::cli
