// Event timing of one launch function: warm-up, cold L2 per sample (a write over twice the L2
// size between samples, outside the timed region), every sample kept, robust summary.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/result/result.hpp"
#include "harness/result/timing_summary.hpp"
#include "harness/run/gpu_hold.hpp"
#include "harness/util/cuda_raii.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench {

// How the timing phase launches an operator (archbench run --cuda-graph; graph_replay.hpp).
enum class CudaGraphMode {
  Off,   // every sample is one launch between CUDA events
  Auto,  // CUDA-graph replay for launch-bound operators only (a short pilot decides)
  All,   // CUDA-graph replay for every operator
};

// The values of --cuda-graph.
inline constexpr auto kCudaGraphModes = enum_names<CudaGraphMode>(
    {{CudaGraphMode::Off, "off"}, {CudaGraphMode::Auto, "auto"}, {CudaGraphMode::All, "all"}});

[[nodiscard]] constexpr std::string_view cuda_graph_mode_name(CudaGraphMode m) { return name_of(kCudaGraphModes, m); }

struct TimerConfig {
  int min_samples = 20;
  int max_samples = 1000;
  double max_seconds = 1.0;      // time cap per operator (after min_samples)
  double target_noise = 0.005;   // stop once the median's standard error is below 0.5% of it
  // and at least 3 warm-up launches: short, because seconds of load put a power-bound kernel under the
  // power cap (power_settle.hpp), which the warm-up would otherwise start
  double warmup_seconds = 0.002;
  double settle_seconds = 1.0;   // the longest wait for the GPU to leave its power cap (needs device_uuid)
  bool cold_l2 = true;
  std::string device_uuid;       // for NVML clocks per sample; empty = no clocks
  CudaGraphMode cuda_graph = CudaGraphMode::Off;  // read by time_operator (phases.cpp)
};

using LaunchFn = std::function<void(cudaStream_t)>;
// One timed sample, synchronous, in ms (per launch).
using SampleFn = std::function<double()>;
// One untimed, synchronous repetition of what a sample times.
using WarmUpFn = std::function<void()>;

// One timed launch: (optionally) a write over twice the L2 outside the timed region, the stream
// held (gpu_hold.hpp) while the host enqueues CUDA events around the launch, then released, so
// that the events time the GPU's work and not the host's call. Shared by the run's timer and the
// Google Benchmark suite.
class SampleTimer {
 public:
  SampleTimer(size_t l2_bytes, bool cold_l2);
  [[nodiscard]] double sample_ms(const LaunchFn& launch, cudaStream_t stream);
  // Why the stream stopped being held (the launch waited on the GPU inside the timed region, so
  // the hold timed out); empty while every sample was held.
  [[nodiscard]] const std::string& hold_fallback() const { return hold_fallback_; }

 private:
  DeviceBuffer flush_;
  CudaEvent start_, stop_;
  GpuHold hold_;
  bool holding_ = true;
  std::string hold_fallback_;
  unsigned fill_ = 0;
};

// The sampling loop every timing mode shares: the wait for the power cap to clear (settle_power),
// warm-up (at least 3 repetitions and cfg.warmup_seconds), then samples until the median's noise target, the time cap or
// max_samples, with NVML clocks after each sample; every sample kept, then summarized. Sets
// cold_l2 from cfg; the mode is the caller's to set.
[[nodiscard]] TimingResult time_samples(const WarmUpFn& warm_up, const SampleFn& sample, const TimerConfig& cfg);

// One launch per sample (SampleTimer) through time_samples.
[[nodiscard]] TimingResult time_launches(const LaunchFn& launch, cudaStream_t stream, const TimerConfig& cfg,
                                         size_t l2_bytes);

}  // namespace archbench
