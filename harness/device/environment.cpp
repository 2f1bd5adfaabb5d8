#include "harness/device/environment.hpp"

#include <string>
#include <cuda_runtime.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <unistd.h>

#include "harness/device/driver_errors.hpp"
#include "harness/util/cuda_check.hpp"

extern char** environ;

namespace archbench {
namespace {

std::string format_uuid(const cudaUUID_t& u) {
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    std::array<char, 3> b{};
    std::snprintf(b.data(), b.size(), "%02x", static_cast<unsigned char>(u.bytes[i]));
    s += b.data();
    if (i == 3 || i == 5 || i == 7 || i == 9) s += '-';
  }
  return s;
}

}  // namespace

arch::DeviceFacts Environment::facts(const DeviceInfo& d) const {
  arch::DeviceFacts f;
  f.cc = d.cc;
  f.driver = driver;
  const auto on = [&](JitSwitch s) {
    const auto setting = jit_switch(cuda_env, s);
    return setting && setting->on;
  };
  f.force_ptx_jit = on(JitSwitch::ForcePtxJit);
  f.jit_disabled = on(JitSwitch::DisablePtxJit);
  return f;
}

std::array<std::string_view, 2> jit_switch_names(JitSwitch s) {
  switch (s) {
    case JitSwitch::DisablePtxJit:
      return {"CUDA_DISABLE_PTX_JIT", "CUDA_DISABLE_JIT"};
    case JitSwitch::ForcePtxJit:
      return {"CUDA_FORCE_PTX_JIT", "CUDA_FORCE_JIT"};
  }
  return {};
}

std::optional<JitSwitchSetting> jit_switch(const std::map<std::string, std::string>& env, JitSwitch s) {
  for (const std::string_view name : jit_switch_names(s)) {
    const auto it = env.find(std::string(name));
    if (it == env.end()) continue;
    // The first spelling present decides, whatever its value: an explicit 0 turns the switch off.
    return JitSwitchSetting{it->first, it->second, !it->second.empty() && it->second != "0"};
  }
  return std::nullopt;
}

std::string explain_device_count_error(int code, arch::CudaVersion driver, arch::CudaVersion runtime) {
  const DriverErrorExplanation e = explain_driver_error(code, driver, runtime);
  std::string cause = e.cause;
  if (!cause.empty()) cause[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(cause[0])));
  return describe_cuda_error(static_cast<cudaError_t>(code)) + ". " + cause + ": " + e.fix;
}

Environment probe_environment() {
  Environment env;
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0) env.host = host.data();
  const std::time_t now = std::time(nullptr);
  std::array<char, 32> when{};
  std::tm utc{};
  if (::gmtime_r(&now, &utc) != nullptr && std::strftime(when.data(), when.size(), "%Y-%m-%dT%H:%M:%SZ", &utc) > 0) {
    env.started_at = when.data();
  }
  for (char** e = environ; *e != nullptr; ++e) {
    std::string kv = *e;
    if (!kv.starts_with("CUDA_")) continue;
    auto eq = kv.find('=');
    env.cuda_env[kv.substr(0, eq)] = eq == std::string::npos ? "" : kv.substr(eq + 1);
  }
  int v = 0;
  if (cudaDriverGetVersion(&v) == cudaSuccess) env.driver.value = v;
  if (cudaRuntimeGetVersion(&v) == cudaSuccess) env.runtime.value = v;

  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();  // not sticky; keep the next call clean
    env.device_count_error = static_cast<int>(err);
    env.device_count_error_text = explain_device_count_error(env.device_count_error, env.driver, env.runtime);
    return env;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    ARCHBENCH_CUDA_CHECK(cudaGetDeviceProperties(&p, i));
    DeviceInfo d;
    d.index = i;
    d.name = p.name;
    d.cc = {p.major, p.minor};
    d.sm_count = p.multiProcessorCount;
    d.memory_bytes = p.totalGlobalMem;
    d.l2_bytes = p.l2CacheSize;
    d.uuid = format_uuid(p.uuid);
    env.devices.push_back(d);
  }
  return env;
}

}  // namespace archbench
