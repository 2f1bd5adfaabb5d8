#pragma once

#include <cuda_runtime.h>

namespace archbench {

// Enqueues an empty one-thread kernel: what the timer's floor (timer_floor.hpp) measures.
void launch_empty_kernel(cudaStream_t stream);

}  // namespace archbench
