#include "harness/run/timer.hpp"

#include <vector>
#include <algorithm>
#include <chrono>
#include <cmath>

#include "harness/device/nvml.hpp"


namespace archbench {
namespace {

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

SampleTimer::SampleTimer(size_t l2_bytes, bool cold_l2) : flush_(cold_l2 ? 2 * l2_bytes : 0) {}

double SampleTimer::sample_ms(const LaunchFn& launch, cudaStream_t stream) {
  if (flush_.bytes() > 0) ARCHBENCH_CUDA_CHECK(cudaMemsetAsync(flush_.get(), (fill_++) & 0xff, flush_.bytes(), stream));
  ARCHBENCH_CUDA_CHECK(cudaEventRecord(start_.get(), stream));
  launch(stream);
  ARCHBENCH_CUDA_CHECK(cudaEventRecord(stop_.get(), stream));
  ARCHBENCH_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
  float ms = 0;
  ARCHBENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
  return ms;
}

void summarize(TimingResult& t) {
  std::vector<double> s = t.samples_ms;
  std::ranges::sort(s);
  t.min_ms = s.empty() ? 0 : s.front();
  t.max_ms = s.empty() ? 0 : s.back();
  t.q1_ms = quantile(s, 0.25);
  t.median_ms = quantile(s, 0.5);
  t.q3_ms = quantile(s, 0.75);
  // SE(median) ~ 1.2533 sigma / sqrt(n), sigma estimated robustly as IQR / 1.349.
  t.rel_noise = (s.size() > 1 && t.median_ms > 0)
                    ? 1.2533 * ((t.q3_ms - t.q1_ms) / 1.349) / std::sqrt(static_cast<double>(s.size())) / t.median_ms
                    : 0;
  if (!t.sm_mhz.empty()) {
    std::vector<double> mhz(t.sm_mhz.begin(), t.sm_mhz.end());
    std::ranges::sort(mhz);
    t.median_sm_mhz = quantile(mhz, 0.5);
    t.median_cycles = t.median_ms * 1e-3 * t.median_sm_mhz * 1e6;
  }
  t.throttled_samples = static_cast<size_t>(std::ranges::count_if(
      t.event_reasons, [](uint64_t r) { return (r & ClockSample::kThrottleMask) != 0; }));
}

TimingResult with_floor_moved(const TimingResult& t, double delta_ms) {
  if (t.mode == "graph" || delta_ms == 0) return t;
  TimingResult u = t;
  for (double& s : u.samples_ms) s += delta_ms;
  const double mhz = u.median_sm_mhz;
  summarize(u);
  if (u.sm_mhz.empty() && mhz > 0) u.median_cycles = u.median_ms * 1e-3 * mhz * 1e6;  // stored clocks summary only
  return u;
}

TimingResult time_samples(const WarmUpFn& warm_up, const SampleFn& sample, const TimerConfig& cfg) {
  using clock = std::chrono::steady_clock;
  const auto warm_until = clock::now() + std::chrono::duration<double>(cfg.warmup_seconds);
  for (int i = 0; i < 3 || clock::now() < warm_until; ++i) warm_up();

  TimingResult t;
  t.cold_l2 = cfg.cold_l2;
  const auto deadline = clock::now() + std::chrono::duration<double>(cfg.max_seconds);
  auto& nvml = Nvml::instance();
  for (int i = 0; i < cfg.max_samples; ++i) {
    if (i >= cfg.min_samples) {
      if (clock::now() > deadline) {
        t.stop_reason = "time cap";
        break;
      }
      summarize(t);
      if (t.rel_noise < cfg.target_noise) {
        t.stop_reason = "noise target";
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
  if (t.stop_reason.empty()) t.stop_reason = "max samples";
  summarize(t);
  return t;
}

TimingResult time_launches(const LaunchFn& launch, cudaStream_t stream, const TimerConfig& cfg, size_t l2_bytes) {
  SampleTimer timer(l2_bytes, cfg.cold_l2);
  return time_samples(
      [&] {
        launch(stream);
        ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
      },
      [&] { return timer.sample_ms(launch, stream); }, cfg);
}

}  // namespace archbench
