// Dynamic shared memory above 48 KiB needs a per-kernel opt-in, and the attribute belongs to the
// kernel as loaded on one device: set it once per kernel and device, thread-safely. The
// tensor-core GEMM, convolution and attention kernels opt in through here.
#pragma once

namespace archbench::kernels {

// Throws std::runtime_error, saying how much is needed and allowed, when the device's per-block
// opt-in limit is smaller than `bytes`; `what` names the kernel in that message ("attention
// kernel").
void opt_in_dynamic_shared_memory(const void* kernel, int bytes, const char* what);

}  // namespace archbench::kernels
