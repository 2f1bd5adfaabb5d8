// Layer 4, the real workload: every operator x dtype on every device, blocking, checked against
// its float64 reference (not a smoke test: a build can cover one family or dtype and miss
// another), with the failures grouped by cause and the guides' temporary workarounds (another
// dtype, the library twin, the CPU) for operators that fail only in some variants. Optionally two
// more passes in child processes: CUDA_FORCE_PTX_JIT=1 with a fresh JIT cache (what would still
// run on a GPU newer than every SASS target, and the first-launch JIT cost per operator) and
// CUDA_DISABLE_PTX_JIT=1 with CUDA_CACHE_DISABLE=1 (proves each operator has SASS). The passes
// are run by the CLI (they need worker processes) as image probes with first-load timing, without
// the correctness run; this module only judges their results.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/doctor/checklist.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/result/result.hpp"

namespace archbench::doctor {

struct PassResults {
  std::vector<OperatorResult> results;    // every operator sent, in order; unreported ones carry the worker's error
  std::map<std::string, double> load_ms;  // per operator: first load of its kernels (cudaFuncGetAttributes)
  std::string failure;                    // a worker failure that stopped the pass ("" = none)
  double seconds = 0;                     // the pass's wall time (--jit-passes reports each pass's)
};

struct WorkloadInputs {
  DeviceInfo device;
  const BuildManifest* build = nullptr;
  PassResults blocking;                   // CUDA_LAUNCH_BLOCKING=1, as `archbench run`'s check phase
  std::optional<PassResults> forced_jit;  // --jit-passes: CUDA_FORCE_PTX_JIT=1, fresh CUDA_CACHE_PATH
  std::optional<PassResults> no_jit;      // --jit-passes: CUDA_DISABLE_PTX_JIT=1, CUDA_CACHE_DISABLE=1
};

// Why an operator result is not a clean pass, in words that group identical causes; "" when it passed.
[[nodiscard]] std::string failure_key(const OperatorResult& r);

void check_workload(const WorkloadInputs& in, Checklist& out);

}  // namespace archbench::doctor
