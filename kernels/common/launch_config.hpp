// Grid sizing: the device's SM count, its per-block shared-memory limit and a kernel's occupancy, each
// read once per device (and kernel) and cached.
#pragma once

#include <cstddef>

namespace archbench::kernels {

// Streaming multiprocessors of the current device (no synchronization).
[[nodiscard]] int current_sm_count();

// The most dynamic shared memory one block of the current device may opt in to (227 KB on 9.0,
// 163 KB on 8.0, 99 KB on 8.6 / 8.9 / 12.0), so that a launch can pick a tiling that fits.
[[nodiscard]] int max_dynamic_shared_memory_per_block();

// Blocks of `kernel` (a __global__ host stub) at `threads` threads and `smem` bytes of dynamic
// shared memory that one SM of the current device holds at once (cudaOccupancy..., at least 1).
[[nodiscard]] int resident_blocks_per_sm(const void* kernel, int threads, size_t smem = 0);

// Blocks for a grid-stride loop over `items` work items, `items_per_block` per block and pass:
// one pass where that fits in one wave of `blocks_per_sm` blocks on every SM, otherwise one wave
// with every thread looping.
[[nodiscard]] unsigned grid_stride_blocks(size_t items, size_t items_per_block, int blocks_per_sm);

}  // namespace archbench::kernels
