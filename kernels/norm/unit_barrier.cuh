// A barrier among the blocks of one "sync unit" of a cooperative launch (the blocks that split one
// GroupNorm group or sample), used to exchange partial statistics without a second kernel.
#pragma once

#include <cuda_runtime.h>

namespace archbench::kernels::norm {

// Every block of the unit calls this once per launch. `arrivals` counts arrivals over all
// launches and is never reset (zero before the first launch), so this launch's round ends at the
// first multiple of `blocks` above a block's ticket; 64 bits never wrap. What any thread of the
// unit wrote before the call is visible to every thread of the unit after it (barrier, fence,
// atomic, fence, barrier: the pattern of cooperative_groups' grid sync). Read such data with
// __ldcg: L1 is not coherent across SMs.
//
// The unit's blocks must be co-resident (a cooperative launch within the occupancy limit), or a
// waiting block could keep a late one from ever being scheduled.
__device__ __forceinline__ void unit_barrier(unsigned long long* arrivals, unsigned blocks) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    const unsigned long long ticket = atomicAdd(arrivals, 1ull);
    const unsigned long long round_end = (ticket / blocks + 1) * blocks;
    const volatile unsigned long long* seen = arrivals;
    while (*seen < round_end) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
      __nanosleep(32);
#endif
    }
    __threadfence();
  }
  __syncthreads();
}

}  // namespace archbench::kernels::norm
