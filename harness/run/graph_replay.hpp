// CUDA-graph replay timing (archbench run --cuda-graph). An operator of a few microseconds is
// launch-bound: a sample of one launch between CUDA events mostly measures the CPU launch path.
// Here `batch` consecutive launches are captured once into a graph; each sample replays the
// graph between CUDA events and counts (elapsed / batch) per launch. The cold-L2 flush, when on,
// runs between replays, outside the timed region, not between the launches inside one replay.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "harness/result/result.hpp"
#include "harness/run/timer.hpp"

namespace archbench {

inline constexpr double kGraphAutoThresholdMs = 0.05;  // auto: replay operators whose pilot median is below
inline constexpr double kGraphReplayTargetMs = 0.2;    // one replay should last at least about this long
inline constexpr int kGraphMaxBatch = 100;

// Launches per captured graph for an operator of `launch_ms` per launch: enough that one replay
// lasts >= kGraphReplayTargetMs, within [1, kGraphMaxBatch]; kGraphMaxBatch when the time is
// unknown (not positive, or NaN).
[[nodiscard]] int graph_batch_for(double launch_ms);

// Whether `mode` replays an operator whose pilot (one launch per sample) median is `pilot_median_ms`.
[[nodiscard]] bool graph_replay_wanted(CudaGraphMode mode, double pilot_median_ms);

// Captures `batch` launches on `stream` (a non-blocking stream, capture mode thread-local so
// that an unsafe call inside `launch`, such as cudaMalloc, fails the capture instead of being
// baked into the graph), instantiates the graph once and times its replays with time_samples:
// mode "graph", graph_batch = batch. When the launches cannot be captured, instantiated or
// replayed, the capture is ended, the non-sticky error cleared, and the launches are timed one
// by one (time_launches) instead, with the reason in graph_fallback. A sticky CUDA error (the
// context is lost) is thrown, as are errors of the one-by-one timing itself.
[[nodiscard]] TimingResult time_graph_replays(const LaunchFn& launch, cudaStream_t stream, const TimerConfig& cfg,
                                              size_t l2_bytes, int batch);

}  // namespace archbench
