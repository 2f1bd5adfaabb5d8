// The device's own ceilings, measured once per run: the better of cuBLAS GEMM at 4096³ and 8192³ per math type, and a
// large device-to-device copy. The "% of ceiling" of every operator is relative to these. Also the timer's floor
// (timer_floor.hpp), which baselines and compare use to tell a machine's fixed overhead from a kernel's time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <cuda_runtime.h>

#include "harness/ops/dtype.hpp"
#include "harness/result/result.hpp"
#include "harness/run/timer.hpp"

namespace archbench {

// device_uuid: NVML's, for the wait out of the power cap before each ceiling (empty: no wait).
// fp8: also cuBLASLt's e4m3 GEMM (a device with FP8 tensor cores, a run with FP8 operators).
[[nodiscard]] Ceilings measure_ceilings(cudaStream_t stream, size_t l2_bytes, const std::string& device_uuid,
                                        bool fp8);

// Roofline bound for an operator of this math type: max(flops / peak, bytes / bandwidth).
// Fills tflops, gbps, pct_of_ceiling and ceiling in `t`.
void apply_roofline(TimingResult& t, double flops, double bytes, DType math, const Ceilings& c);

}  // namespace archbench
