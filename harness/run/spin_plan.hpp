// The test-only slowdown knob (ARCHBENCH_TEST_SLOWDOWN) slows an operator by queueing a spin kernel
// after each launch. The spin costs more than the cycles it waits: its own launch gap and run,
// about 2 us on the H200, the same after a 5 us kernel as after a 3 ms one. Uncounted, a "5%"
// slowdown of a 9 us kernel measured +25-30% there, and the knob overstated how small a slowdown
// `compare` catches. The plan counts that fixed cost toward the delay it injects.
#pragma once

#include <cstddef>
#include <cuda_runtime.h>

namespace archbench {

struct SpinPlan {
  long long cycles = 0;  // what the spin kernel waits, in SM cycles
  // What the spin adds to each launch in all: the requested fraction of the operator's median, or
  // the spin's fixed cost alone when that is more (an operator too short for the fraction).
  double delay_ms = 0;
};

// fraction: the slowdown asked for (0.05 = 5%); median_ms: the operator's own median; overhead_ms:
// what a zero-cycle spin adds after a kernel (measure_spin_overhead_ms); sm_mhz: the clock the
// spin counts cycles at.
[[nodiscard]] SpinPlan plan_spin_delay(double fraction, double median_ms, double overhead_ms, double sm_mhz);

// (empty kernel + zero-cycle spin) - (empty kernel), both timed as the operators are: the spin's
// fixed cost per launch, never below 0.
[[nodiscard]] double measure_spin_overhead_ms(cudaStream_t stream, size_t l2_bytes);

}  // namespace archbench
