// Clocks, power and clock-event (throttle) reasons through NVML, loaded with dlopen so that
// archbench has no link-time dependency on the driver; without NVML everything reads "unknown".
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace archbench {

struct ClockSample {
  unsigned sm_mhz = 0;
  unsigned mem_mhz = 0;
  unsigned power_mw = 0;
  uint64_t event_reasons = 0;  // nvmlClocksEventReason* bits
  // Slowed by a power cap, thermal or hardware slowdown (not idle, not an applications-clock setting).
  [[nodiscard]] bool throttled() const { return (event_reasons & kThrottleMask) != 0; }
  static constexpr uint64_t kThrottleMask = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;
};

// "sw-power-cap,hw-slowdown" for the set bits, "none" for 0.
[[nodiscard]] std::string describe_event_reasons(uint64_t reasons);

class Nvml {
 public:
  static Nvml& instance();
  [[nodiscard]] bool available() const { return available_; }
  [[nodiscard]] const std::string& why_unavailable() const { return why_; }
  // Current clocks of the device with this CUDA UUID ("GPU-xxxxxxxx-..."); nullopt when unknown.
  [[nodiscard]] std::optional<ClockSample> sample(const std::string& uuid);

  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

 private:
  Nvml();
  ~Nvml();
  void* lib_ = nullptr;
  bool available_ = false;
  std::string why_;
};

}  // namespace archbench
