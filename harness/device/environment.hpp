// What the process sees of CUDA: driver and runtime versions, the devices, and the environment
// variables that change CUDA's behaviour. Recorded once and attached to every result.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/arch/compat.hpp"
#include "harness/arch/cuda_versions.hpp"

namespace archbench {

struct DeviceInfo {
  int index = 0;
  std::string name;
  arch::ComputeCapability cc;
  int sm_count = 0;
  size_t memory_bytes = 0;
  int l2_bytes = 0;
  std::string uuid;
};

struct Environment {
  arch::CudaVersion driver;   // cudaDriverGetVersion (0 when there is no driver)
  arch::CudaVersion runtime;  // cudaRuntimeGetVersion
  int device_count_error = 0; // cudaGetDeviceCount's error, 0 = fine
  std::string device_count_error_text;  // decoded, with what to do about it
  std::vector<DeviceInfo> devices;
  std::map<std::string, std::string> cuda_env;  // CUDA_* variables that were set
  std::string host;        // gethostname: with the GPU UUID, which runner a run came from (history)
  std::string started_at;  // when the probe ran, UTC, ISO 8601 ("2026-12-03T10:19:09Z")

  [[nodiscard]] bool usable() const { return device_count_error == 0 && !devices.empty(); }
  [[nodiscard]] arch::DeviceFacts facts(const DeviceInfo& d) const;
};

// The driver's two PTX JIT switches, each read under two spellings: the PTX_ one and an older
// alias. When the PTX_ spelling is set at all, even to "" or "0", it decides and the alias is
// ignored; otherwise the alias decides (docs/reference/compat.md, "JIT switches"). The value
// that decides turns the switch on unless it is "" or "0".
enum class JitSwitch {
  DisablePtxJit,  // CUDA_DISABLE_PTX_JIT, alias CUDA_DISABLE_JIT: PTX cannot be compiled
  ForcePtxJit,    // CUDA_FORCE_PTX_JIT, alias CUDA_FORCE_JIT: SASS is ignored, PTX always compiled
};
inline constexpr JitSwitch kJitSwitches[] = {JitSwitch::DisablePtxJit, JitSwitch::ForcePtxJit};

// The spellings the driver reads, the deciding one first.
[[nodiscard]] std::array<std::string_view, 2> jit_switch_names(JitSwitch s);

struct JitSwitchSetting {
  std::string name;   // the spelling that decides: "CUDA_FORCE_PTX_JIT" or "CUDA_FORCE_JIT"
  std::string value;  // as set
  bool on = false;
};
// How `env` sets the switch; nullopt when neither spelling is set.
[[nodiscard]] std::optional<JitSwitchSetting> jit_switch(const std::map<std::string, std::string>& env, JitSwitch s);

// Probes without creating a context.
[[nodiscard]] Environment probe_environment();

// What a cudaGetDeviceCount failure means and what to do (35, 100, 999, ...).
[[nodiscard]] std::string explain_device_count_error(int code, arch::CudaVersion driver, arch::CudaVersion runtime);

}  // namespace archbench
