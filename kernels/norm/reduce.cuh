// Warp and block sums for the norm kernels (fp32 statistics; fp64 where partial statistics of a
// split group are combined).
#pragma once

#include <cuda_runtime.h>

namespace archbench::kernels::norm {

// Sum over aligned groups of kLanes lanes (a power of two <= 32); every lane of a group gets it.
// All 32 lanes of the warp must call it.
template <int kLanes = 32, typename V>
__device__ __forceinline__ V lane_group_sum(V v) {
  static_assert(kLanes >= 1 && kLanes <= 32 && (kLanes & (kLanes - 1)) == 0, "kLanes: a power of two <= 32");
#pragma unroll
  for (int offset = kLanes / 2; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// Sum over the block (blockDim.x a multiple of 32); every thread gets the result. `scratch` holds
// one float per warp; the leading barrier lets a block call it back to back.
__device__ __forceinline__ float block_sum(float v, float* scratch) {
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  const int warps = static_cast<int>(blockDim.x / 32);
  v = lane_group_sum(v);
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  float total = 0;
  for (int i = 0; i < warps; ++i) total += scratch[i];
  return total;
}

}  // namespace archbench::kernels::norm
