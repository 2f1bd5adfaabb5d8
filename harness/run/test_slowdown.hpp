// The test-only slowdown knob, ARCHBENCH_TEST_SLOWDOWN="<filter>=<fraction>": slows the operators
// the --filter language matches by a calibrated spin after every launch, inside the timed region,
// to prove that `archbench compare` catches a slowdown of that size (docs/testing.md, "The
// test-only slowdown knob"). Kept apart from the timing code, which only sees a launch function.
#pragma once

#include <cstddef>
#include <string>

#include "harness/result/result.hpp"
#include "harness/run/timer.hpp"

namespace archbench {

class TestSlowdown {
 public:
  // The knob's fraction for this operator: 0 when unset or not matched. Throws std::invalid_argument
  // on a knob that is not <glob>=<fraction>.
  [[nodiscard]] static TestSlowdown for_operator(const std::string& id);

  [[nodiscard]] bool active() const { return fraction_ > 0; }
  [[nodiscard]] double fraction() const { return fraction_; }

  // `launch` followed by a spin of the fraction of the pilot's median, at the SM clock it ran at.
  // Launched one by one, the spin's own fixed cost counts toward the delay (spin_plan.hpp); inside
  // a replayed CUDA graph its launch gap mostly disappears, so none is counted there (and the
  // operator's own time per launch is usually below its pilot's, so the fraction comes out larger).
  [[nodiscard]] LaunchFn wrap(LaunchFn launch, const TimingResult& pilot, bool replayed, cudaStream_t stream,
                              size_t l2_bytes);

  // Records what was injected in the timing result (fraction and delay per launch); the delay is
  // known once wrap() has planned it.
  void record(TimingResult& t) const;

 private:
  double fraction_ = 0;
  double delay_ms_ = 0;
};

}  // namespace archbench
