#include "harness/device/environment.hpp"

#include <string>
#include <cuda_runtime.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "harness/device/driver_errors.hpp"
#include "harness/util/cuda_check.hpp"

extern char** environ;

namespace archbench {
namespace {

bool env_flag(const std::map<std::string, std::string>& env, const char* name) {
  auto it = env.find(name);
  return it != env.end() && !it->second.empty() && it->second != "0";
}

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
  // The PTX_ spelling wins over the older alias (docs/reference/compat.md, "JIT switches").
  f.force_ptx_jit = cuda_env.contains("CUDA_FORCE_PTX_JIT") ? env_flag(cuda_env, "CUDA_FORCE_PTX_JIT")
                                                            : env_flag(cuda_env, "CUDA_FORCE_JIT");
  f.jit_disabled = cuda_env.contains("CUDA_DISABLE_PTX_JIT") ? env_flag(cuda_env, "CUDA_DISABLE_PTX_JIT")
                                                             : env_flag(cuda_env, "CUDA_DISABLE_JIT");
  return f;
}

std::string explain_device_count_error(int code, arch::CudaVersion driver, arch::CudaVersion runtime) {
  const DriverErrorExplanation e = explain_driver_error(code, driver, runtime);
  std::string cause = e.cause;
  if (!cause.empty()) cause[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(cause[0])));
  return describe_cuda_error(static_cast<cudaError_t>(code)) + ". " + cause + ": " + e.fix;
}

Environment probe_environment() {
  Environment env;
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
