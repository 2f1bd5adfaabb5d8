// What the process sees of CUDA: driver and runtime versions, the devices, and the environment
// variables that change CUDA's behaviour. Recorded once and attached to every result.
#pragma once

#include <map>
#include <string>
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

  [[nodiscard]] bool usable() const { return device_count_error == 0 && !devices.empty(); }
  [[nodiscard]] arch::DeviceFacts facts(const DeviceInfo& d) const;
};

// Probes without creating a context.
[[nodiscard]] Environment probe_environment();

// What a cudaGetDeviceCount failure means and what to do (35, 100, 999, ...).
[[nodiscard]] std::string explain_device_count_error(int code, arch::CudaVersion driver, arch::CudaVersion runtime);

}  // namespace archbench
