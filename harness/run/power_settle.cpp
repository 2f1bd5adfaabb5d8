#include "harness/run/power_settle.hpp"

#include <chrono>
#include <thread>

#include "harness/device/nvml.hpp"

namespace archbench {

PowerSettle settle_power(const std::string& device_uuid, double max_seconds) {
  using clock = std::chrono::steady_clock;
  static int capped_in_a_row = 0;  // the timing worker times one device from one thread
  PowerSettle s;
  auto& nvml = Nvml::instance();
  const auto start = clock::now();
  const auto until = start + std::chrono::duration<double>(capped_in_a_row >= 2 ? 0.0 : max_seconds);
  bool slept = false;
  for (;;) {
    const auto c = nvml.sample(device_uuid);
    if (!c || !c->throttled()) break;
    if (clock::now() >= until) {
      s.capped = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    slept = true;
  }
  // Not capped at the first look is no wait (the look itself is NVML's few microseconds).
  if (slept) s.waited_ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
  capped_in_a_row = s.capped ? capped_in_a_row + 1 : 0;
  return s;
}

}  // namespace archbench
