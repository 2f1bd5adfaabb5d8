// Its own translation unit: .cu files build as C++17 and must not include the C++20 harness headers.
#include <cuda_runtime.h>

#include "harness/run/empty_kernel.hpp"
#include "harness/util/cuda_check.hpp"

namespace archbench {
namespace {

__global__ void empty_kernel() {}

}  // namespace

void launch_empty_kernel(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  ARCHBENCH_CHECK_LAUNCH();
}

}  // namespace archbench
