// Clocks, power and clock-event (throttle) reasons through NVML, loaded with dlopen so that
// archbench has no link-time dependency on the driver; without NVML everything reads "unknown".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

// What NVML says about the system, for the doctor.
struct NvmlSystem {
  std::string driver_version;      // nvmlSystemGetDriverVersion: "580.159.04" (user-space driver)
  int cuda_driver_version = 0;     // nvmlSystemGetCudaDriverVersion: 13000
  std::vector<std::string> uuids;  // every GPU NVML sees, in its order; CUDA_VISIBLE_DEVICES does not apply
};

// One GPU's state, for the doctor. A query NVML does not support here stays empty. For a MIG
// instance the GPU-wide fields come from its parent GPU.
struct NvmlDeviceState {
  std::optional<bool> mig_enabled, mig_pending;  // MIG mode now, and after the next GPU reset
  std::optional<bool> persistence;
  std::optional<bool> ecc_enabled, ecc_pending;
  std::optional<unsigned long long> ecc_uncorrected;  // volatile count, since the last driver load
  std::optional<bool> remap_pending, remap_failure;   // row remapping waiting for a reset / failed
  std::optional<uint64_t> event_reasons;              // clock-event reasons now
};

class Nvml {
 public:
  static Nvml& instance();
  [[nodiscard]] bool available() const { return available_; }
  [[nodiscard]] const std::string& why_unavailable() const { return why_; }
  // Current clocks of the device with this CUDA UUID ("GPU-xxxxxxxx-..."); nullopt when unknown.
  [[nodiscard]] std::optional<ClockSample> sample(const std::string& uuid);
  // nvmlInit_v2's return code (0 = fine; 9 driver not loaded, 18 kernel module / library version
  // mismatch), -1 when the library was not found or lacks the entry points.
  [[nodiscard]] int init_status() const { return init_status_; }
  [[nodiscard]] std::optional<NvmlSystem> system();
  [[nodiscard]] std::optional<NvmlDeviceState> state(const std::string& uuid);

  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

 private:
  Nvml();
  ~Nvml();
  void* lib_ = nullptr;
  bool available_ = false;
  int init_status_ = -1;
  std::string why_;
};

}  // namespace archbench
