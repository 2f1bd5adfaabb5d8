// Grid sizing for the memory-bound kernels: the device's SM count and a kernel's occupancy, each
// read once per device (and kernel) and cached.
#pragma once

#include <cstddef>

namespace archbench::kernels {

// Streaming multiprocessors of the current device (no synchronization).
[[nodiscard]] int current_sm_count();

// Blocks of `kernel` (a __global__ host stub) at `threads` threads and `smem` bytes of dynamic
// shared memory that one SM of the current device holds at once (cudaOccupancy..., at least 1).
[[nodiscard]] int resident_blocks_per_sm(const void* kernel, int threads, size_t smem = 0);

// Blocks for a grid-stride loop over `items` work items, `items_per_block` per block and pass:
// one pass where that fits in one wave of `blocks_per_sm` blocks on every SM, otherwise one wave
// with every thread looping.
[[nodiscard]] unsigned grid_stride_blocks(size_t items, size_t items_per_block, int blocks_per_sm);

}  // namespace archbench::kernels
