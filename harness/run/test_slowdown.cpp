#include "harness/run/test_slowdown.hpp"

#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "harness/ops/id_filter.hpp"
#include "harness/run/spin_delay.hpp"
#include "harness/run/spin_plan.hpp"
#include "harness/util/cuda_check.hpp"

namespace archbench {

TestSlowdown TestSlowdown::for_operator(const std::string& id) {
  TestSlowdown s;
  const char* knob = std::getenv("ARCHBENCH_TEST_SLOWDOWN");
  if (knob == nullptr) return s;
  const std::string k = knob;
  const auto eq = k.rfind('=');
  if (eq == std::string::npos) throw std::invalid_argument("ARCHBENCH_TEST_SLOWDOWN must be <glob>=<fraction>");
  if (id_matches(k.substr(0, eq), id)) s.fraction_ = std::stod(k.substr(eq + 1));
  return s;
}

LaunchFn TestSlowdown::wrap(LaunchFn launch, const TimingResult& pilot, bool replayed, cudaStream_t stream,
                            size_t l2_bytes) {
  int khz = 0;
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  const double mhz = pilot.median_sm_mhz > 0 ? pilot.median_sm_mhz : khz / 1000.0;
  const double overhead_ms = replayed ? 0.0 : measure_spin_overhead_ms(stream, l2_bytes);
  const SpinPlan plan = plan_spin_delay(fraction_, pilot.median_ms, overhead_ms, mhz);
  delay_ms_ = plan.delay_ms;
  return [launch = std::move(launch), cycles = plan.cycles](cudaStream_t s) {
    launch(s);
    launch_spin_delay(cycles, s);
  };
}

void TestSlowdown::record(TimingResult& t) const {
  t.injected_slowdown = fraction_;
  t.injected_delay_ms = delay_ms_;
}

}  // namespace archbench
