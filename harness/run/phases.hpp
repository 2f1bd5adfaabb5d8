// The two phases of a run for one operator:
//   check: image probe, then correctness against the float64 reference, with
//          CUDA_LAUNCH_BLOCKING=1 so any error is attributed to this operator's launch;
//   time:  asynchronous event timing at the benchmark shape, against the device's ceilings.
#pragma once

#include <cstdint>

#include "harness/arch/compat.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/ops/operator.hpp"
#include "harness/result/result.hpp"
#include "harness/run/timer.hpp"

namespace archbench {

// The identifying fields of a result, before anything ran.
[[nodiscard]] OperatorResult describe(const Operator& op);

// CUDA_LAUNCH_BLOCKING is read once, when CUDA initialises; call before any CUDA call.
void enable_launch_blocking();
[[nodiscard]] bool launch_blocking_in_effect();

// What check_operator runs. By default: correctness at the check scale, then the all-finite pass
// at the benchmark shape. A caller that cannot afford the benchmark shape (archbench run --quick,
// the GPU suite under a slow compute-sanitizer tool) may skip the latter; the result then says
// scope "quick", keeps bench_shape_finite false and records no implementation.
struct CheckOptions {
  bool bench_shape_pass = true;
};

void check_operator(const Operator& op, const BuildManifest& build, const arch::DeviceFacts& device, uint64_t seed,
                    OperatorResult& result, const CheckOptions& options = {});

void time_operator(const Operator& op, const Ceilings& ceilings, size_t l2_bytes, const TimerConfig& cfg,
                   uint64_t seed, OperatorResult& result);

}  // namespace archbench
