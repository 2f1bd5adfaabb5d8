// The loop of the vectorized elementwise kernels (pointwise, GEGLU, upsample): a grid-stride walk
// over `items` (16-byte packs), kUnroll items per thread per pass, where every load of a pass is
// issued before the first store, so that kUnroll loads per thread are in flight at once.
#pragma once

#include <cuda_runtime.h>

namespace archbench::kernels {

// Calls load(u, p) for each item p (< items) of this thread's pass, u = 0 .. kUnroll-1 its slot,
// then store(u, p) for the same items. Index is the item index type (32 bits where the count
// allows, for cheaper division in the callers).
template <int kThreads, int kUnroll, typename Index, typename Load, typename Store>
__device__ __forceinline__ void unrolled_grid_stride(Index items, Load&& load, Store&& store) {
  const Index pass = static_cast<Index>(gridDim.x) * kThreads * kUnroll;
  for (Index base = static_cast<Index>(blockIdx.x) * kThreads * kUnroll + threadIdx.x; base < items; base += pass) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const Index p = base + static_cast<Index>(u) * kThreads;
      if (p < items) load(u, p);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const Index p = base + static_cast<Index>(u) * kThreads;
      if (p < items) store(u, p);
    }
  }
}

}  // namespace archbench::kernels
