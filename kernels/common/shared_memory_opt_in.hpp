// Dynamic shared memory above 48 KiB needs a per-kernel opt-in, and the attribute belongs to the
// kernel as loaded on one device: set it once per kernel and device, thread-safely. The
// tensor-core GEMM, convolution and attention kernels opt in through here.
#pragma once

namespace archbench::kernels {

// Throws std::runtime_error, saying how much is needed and allowed, when the device's per-block
// opt-in limit is smaller than `bytes`; `what` names the kernel in that message ("attention
// kernel").
void opt_in_dynamic_shared_memory(const void* kernel, int bytes, const char* what);

// The most dynamic shared memory one block may opt into on the current device (99 KiB on CC 8.6 /
// 8.9 / 12.0, 163 KiB on 8.0, 227 KiB on 9.0), for code that picks a tile that fits.
[[nodiscard]] int shared_memory_per_block_limit();

}  // namespace archbench::kernels
