#pragma once

#include <cuda_runtime.h>

namespace archbench {

// Enqueues a one-thread kernel that spins for `cycles` SM cycles (test-only slowdown knob).
void launch_spin_delay(long long cycles, cudaStream_t stream);

}  // namespace archbench
