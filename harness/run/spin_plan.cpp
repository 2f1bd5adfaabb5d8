#include "harness/run/spin_plan.hpp"

#include <algorithm>

#include "harness/run/empty_kernel.hpp"
#include "harness/run/spin_delay.hpp"
#include "harness/run/timer.hpp"

namespace archbench {

SpinPlan plan_spin_delay(double fraction, double median_ms, double overhead_ms, double sm_mhz) {
  SpinPlan plan;
  const double overhead = std::max(0.0, overhead_ms);
  plan.delay_ms = std::max(fraction * median_ms, overhead);
  plan.cycles = static_cast<long long>((plan.delay_ms - overhead) * 1e-3 * sm_mhz * 1e6);
  return plan;
}

double measure_spin_overhead_ms(cudaStream_t stream, size_t l2_bytes) {
  TimerConfig cfg;
  cfg.min_samples = 100;  // microsecond medians: cheap, and the difference of two must be tight
  cfg.max_seconds = 0.3;
  const double alone = time_launches(launch_empty_kernel, stream, cfg, l2_bytes).median_ms;
  const auto with_spin = [](cudaStream_t s) {
    launch_empty_kernel(s);
    launch_spin_delay(0, s);
  };
  return std::max(0.0, time_launches(with_spin, stream, cfg, l2_bytes).median_ms - alone);
}

}  // namespace archbench
