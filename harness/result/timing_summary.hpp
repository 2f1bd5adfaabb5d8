// The summary of a timing's samples (median, quartiles, noise, clocks), computed where samples
// are taken (harness/run/timer) and again where stored samples are moved or pooled
// (harness/baseline): part of the result model, with no CUDA in it.
#pragma once

#include "harness/result/result.hpp"

namespace archbench {

// Median / quartiles / min / max of the samples (linear interpolation), the median's relative
// standard error, and the clock summary when clocks were sampled.
void summarize(TimingResult& t);

// `t` with `delta_ms` added to every sample, re-summarized: a single-launch timing moved from one
// timer floor to another (timer_floor.hpp). CUDA-graph replay amortises the floor over its batch
// and is returned unchanged.
[[nodiscard]] TimingResult with_floor_moved(const TimingResult& t, double delta_ms);

}  // namespace archbench
