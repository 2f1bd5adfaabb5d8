// Event timing of one launch function: warm-up, cold L2 per sample (a write over twice the L2
// size between samples, outside the timed region), every sample kept, robust summary.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

#include "harness/report/result.hpp"

namespace archbench {

struct TimerConfig {
  int min_samples = 20;
  int max_samples = 200;
  double max_seconds = 1.0;     // stop adding samples past this (after min_samples)
  double warmup_seconds = 0.05; // and at least 3 warm-up launches
  bool cold_l2 = true;
};

using LaunchFn = std::function<void(cudaStream_t)>;

[[nodiscard]] TimingResult time_launches(const LaunchFn& launch, cudaStream_t stream, const TimerConfig& cfg,
                                         size_t l2_bytes);

// Median / quartiles of the samples (linear interpolation).
void summarize(TimingResult& t);

}  // namespace archbench
