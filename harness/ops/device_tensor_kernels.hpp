// The harness's two device-side tensor helpers, for benchmark-scale tensors that no host code
// reads element by element: drawing random inputs and counting non-finite outputs on the GPU.
// Drawing 50-100 M inputs in float64 on the host and downloading as many outputs made data
// preparation, not the GPU, most of a full run (docs/measurement.md, "Where a run's time goes").
#pragma once

#include <cstddef>
#include <cstdint>

#include "harness/ops/dtype.hpp"

namespace archbench::device_kernels {

// Whether this build holds an image of the helpers that loads on the current device. A build
// without one (a seed-replay build for another architecture, CUDA_DISABLE_PTX_JIT) still runs the
// library operators: the callers then take the host path.
[[nodiscard]] bool available();

// out[i] = lo + (hi - lo) * u_i rounded to dtype's storage, u_i uniform in [0, 1) from a
// counter-based hash of (seed, i): in [lo, hi] after rounding, and the values depend on the seed
// alone. Synchronous.
void fill_uniform(void* out, DType dtype, size_t numel, uint64_t seed, double lo, double hi);

// How many of the numel elements are NaN or infinite (the poison, 0xFF bytes, is a NaN). Runs on
// the legacy stream: the stream that wrote `data` must be finished first.
[[nodiscard]] size_t count_non_finite(const void* data, DType dtype, size_t numel);

}  // namespace archbench::device_kernels
