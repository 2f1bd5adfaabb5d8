// Kernels that fail on purpose, for the isolation tests: never part of archbench's registry.
#include "suites/faults/fault_kernels.hpp"

#include <cstdint>

#include "harness/util/cuda_check.hpp"

namespace archbench::faults {
namespace {

// Writes far outside any allocation: cudaErrorIllegalAddress, which is sticky.
__global__ void write_out_of_bounds(float* out, size_t n) {
  const size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i + (size_t{1} << 40)] = 1.0f;
}

// A trap instruction: the launch fails (cudaErrorLaunchFailure), also sticky.
__global__ void trap(float* out) {
  out[0] = 0.0f;
  __trap();
}

// Never returns: the flag it polls stays 0. Only a deadline in the parent ends it.
__global__ void spin_forever(const volatile int* flag, float* out) {
  while (*flag == 0) {
  }
  out[0] = 1.0f;
}

__global__ void double_values(const float* in, float* out, size_t n) {
  const size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

}  // namespace

const void* kernel_stub(Fault f) {
  switch (f) {
    case Fault::OutOfBounds: return reinterpret_cast<const void*>(&write_out_of_bounds);
    case Fault::Trap: return reinterpret_cast<const void*>(&trap);
    case Fault::Spin: return reinterpret_cast<const void*>(&spin_forever);
    case Fault::None: break;
  }
  return reinterpret_cast<const void*>(&double_values);
}

void launch(Fault f, const float* in, const int* zero_flag, float* out, size_t n, cudaStream_t s) {
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  switch (f) {
    case Fault::OutOfBounds: write_out_of_bounds<<<blocks, 256, 0, s>>>(out, n); break;
    case Fault::Trap: trap<<<1, 1, 0, s>>>(out); break;
    case Fault::Spin: spin_forever<<<1, 1, 0, s>>>(zero_flag, out); break;
    case Fault::None: double_values<<<blocks, 256, 0, s>>>(in, out, n); break;
  }
  ARCHBENCH_CHECK_LAUNCH();
}

}  // namespace archbench::faults
