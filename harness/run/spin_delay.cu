// Test-only: a one-thread kernel that spins for a number of SM cycles. The slowdown knob
// (ARCHBENCH_TEST_SLOWDOWN) queues it after an operator inside the timed region, to prove that
// `archbench compare` catches a calibrated slowdown.
#include <cuda_runtime.h>

#include "harness/run/spin_delay.hpp"
#include "harness/util/cuda_check.hpp"

namespace archbench {
namespace {

__global__ void spin_cycles(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

}  // namespace

void launch_spin_delay(long long cycles, cudaStream_t stream) {
  spin_cycles<<<1, 1, 0, stream>>>(cycles);
  ARCHBENCH_CHECK_LAUNCH();
}

}  // namespace archbench
