#include "harness/result/timing_summary.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "harness/device/nvml.hpp"
#include "harness/util/quantile.hpp"

namespace archbench {

void summarize(TimingResult& t) {
  std::vector<double> s = t.samples_ms;
  std::ranges::sort(s);
  t.min_ms = s.empty() ? 0 : s.front();
  t.max_ms = s.empty() ? 0 : s.back();
  t.q1_ms = quantile_of_sorted(s, 0.25);
  t.median_ms = quantile_of_sorted(s, 0.5);
  t.q3_ms = quantile_of_sorted(s, 0.75);
  // SE(median) ~ 1.2533 sigma / sqrt(n), sigma estimated robustly as IQR / 1.349.
  t.rel_noise = (s.size() > 1 && t.median_ms > 0)
                    ? 1.2533 * ((t.q3_ms - t.q1_ms) / 1.349) / std::sqrt(static_cast<double>(s.size())) / t.median_ms
                    : 0;
  if (!t.sm_mhz.empty()) {
    std::vector<double> mhz(t.sm_mhz.begin(), t.sm_mhz.end());
    std::ranges::sort(mhz);
    t.median_sm_mhz = quantile_of_sorted(mhz, 0.5);
    t.median_cycles = t.median_ms * 1e-3 * t.median_sm_mhz * 1e6;
  }
  t.throttled_samples = static_cast<size_t>(std::ranges::count_if(
      t.event_reasons, [](uint64_t r) { return (r & ClockSample::kThrottleMask) != 0; }));
}

TimingResult with_floor_moved(const TimingResult& t, double delta_ms) {
  if (t.mode == LaunchMode::Graph || delta_ms == 0) return t;
  TimingResult u = t;
  for (double& s : u.samples_ms) s += delta_ms;
  const double mhz = u.median_sm_mhz;
  summarize(u);
  if (u.sm_mhz.empty() && mhz > 0) u.median_cycles = u.median_ms * 1e-3 * mhz * 1e6;  // stored clocks summary only
  return u;
}

}  // namespace archbench
