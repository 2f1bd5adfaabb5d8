#include "harness/run/timer.hpp"

#include <vector>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "harness/device/nvml.hpp"
#include "harness/run/power_settle.hpp"


namespace archbench {

namespace {
// Under CUDA_LAUNCH_BLOCKING=1 every launch waits for its kernel, the hold's own included.
bool launches_block() {
  const char* v = std::getenv("CUDA_LAUNCH_BLOCKING");
  return v != nullptr && std::string_view(v) == "1";
}
}  // namespace

SampleTimer::SampleTimer(size_t l2_bytes, bool cold_l2) : flush_(cold_l2 ? 2 * l2_bytes : 0) {
  if (launches_block()) {
    holding_ = false;
    hold_fallback_ = "CUDA_LAUNCH_BLOCKING=1: every launch waits for the GPU, so the stream cannot be held";
  }
}

double SampleTimer::sample_ms(const LaunchFn& launch, cudaStream_t stream) {
  if (flush_.bytes() > 0) ARCHBENCH_CUDA_CHECK(cudaMemsetAsync(flush_.get(), (fill_++) & 0xff, flush_.bytes(), stream));
  if (holding_) hold_.hold(stream);
  {
    // Released on every way out, a failed launch included, so the GPU never waits for a timeout.
    struct Release {
      GpuHold& hold;
      bool on;
      ~Release() {
        if (on) hold.release();
      }
    } release{hold_, holding_};
    ARCHBENCH_CUDA_CHECK(cudaEventRecord(start_.get(), stream));
    launch(stream);
    ARCHBENCH_CUDA_CHECK(cudaEventRecord(stop_.get(), stream));
  }
  ARCHBENCH_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
  if (holding_ && hold_.timed_out()) {
    holding_ = false;
    hold_fallback_ = "the launch waits for the GPU (a synchronizing call), so the stream cannot be held while it "
                     "is enqueued; its host time may be in the samples";
  }
  float ms = 0;
  ARCHBENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
  return ms;
}

TimingResult time_samples(const WarmUpFn& warm_up, const SampleFn& sample, const TimerConfig& cfg) {
  using clock = std::chrono::steady_clock;
  TimingResult t;
  t.cold_l2 = cfg.cold_l2;
  if (!cfg.device_uuid.empty() && cfg.settle_seconds > 0) {
    const PowerSettle settle = settle_power(cfg.device_uuid, cfg.settle_seconds);
    t.settle_ms = settle.waited_ms;
    t.settle_capped = settle.capped;
  }
  const auto warm_until = clock::now() + std::chrono::duration<double>(cfg.warmup_seconds);
  for (int i = 0; i < 3 || clock::now() < warm_until; ++i) warm_up();

  const auto deadline = clock::now() + std::chrono::duration<double>(cfg.max_seconds);
  auto& nvml = Nvml::instance();
  for (int i = 0; i < cfg.max_samples; ++i) {
    if (i >= cfg.min_samples) {
      if (clock::now() > deadline) {
        t.stop_reason = StopReason::TimeCap;
        break;
      }
      summarize(t);
      if (t.rel_noise < cfg.target_noise) {
        t.stop_reason = StopReason::NoiseTarget;
        break;
      }
    }
    t.samples_ms.push_back(sample());
    // Clocks right after the sample: what the SM ran at while the kernel did (the sample is
    // synchronous, so the reading is at most a few microseconds late).
    if (!cfg.device_uuid.empty()) {
      if (auto c = nvml.sample(cfg.device_uuid)) {
        t.sm_mhz.push_back(c->sm_mhz);
        t.event_reasons.push_back(c->event_reasons);
      }
    }
  }
  if (t.stop_reason == StopReason::NotRecorded) t.stop_reason = StopReason::MaxSamples;
  summarize(t);
  return t;
}

TimingResult time_launches(const LaunchFn& launch, cudaStream_t stream, const TimerConfig& cfg, size_t l2_bytes) {
  SampleTimer timer(l2_bytes, cfg.cold_l2);
  TimingResult t = time_samples(
      [&] {
        launch(stream);
        ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
      },
      [&] { return timer.sample_ms(launch, stream); }, cfg);
  t.hold_fallback = timer.hold_fallback();
  return t;
}

}  // namespace archbench
