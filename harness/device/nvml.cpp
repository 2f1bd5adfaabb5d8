#include "harness/device/nvml.hpp"

#include <dlfcn.h>

#include <map>
#include <utility>

namespace archbench {
namespace {

// The few NVML entry points used, declared here (NVML's documented C ABI) so no nvml.h is needed.
using nvmlDevice_t = void*;
using InitFn = int (*)();
using ShutdownFn = int (*)();
using HandleByUuidFn = int (*)(const char*, nvmlDevice_t*);
using ClockInfoFn = int (*)(nvmlDevice_t, int, unsigned*);
using PowerFn = int (*)(nvmlDevice_t, unsigned*);
using ReasonsFn = int (*)(nvmlDevice_t, unsigned long long*);
constexpr int kNvmlClockSm = 1;
constexpr int kNvmlClockMem = 2;

struct Api {
  HandleByUuidFn handle_by_uuid = nullptr;
  ClockInfoFn clock_info = nullptr;
  PowerFn power = nullptr;
  ReasonsFn reasons = nullptr;
  ShutdownFn shutdown = nullptr;
};
Api api;

}  // namespace

std::string describe_event_reasons(uint64_t reasons) {
  static const std::pair<uint64_t, const char*> names[] = {
      {0x1, "gpu-idle"},           {0x2, "applications-clocks"}, {0x4, "sw-power-cap"},
      {0x8, "hw-slowdown"},        {0x10, "sync-boost"},         {0x20, "sw-thermal"},
      {0x40, "hw-thermal"},        {0x80, "hw-power-brake"},     {0x100, "display-clock"}};
  std::string out;
  for (const auto& [bit, name] : names) {
    if ((reasons & bit) != 0) out += (out.empty() ? "" : ",") + std::string(name);
  }
  return out.empty() ? "none" : out;
}

Nvml& Nvml::instance() {
  static Nvml nvml;
  return nvml;
}

Nvml::Nvml() {
  lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib_ == nullptr) {
    why_ = "libnvidia-ml.so.1 not found";
    return;
  }
  auto init = reinterpret_cast<InitFn>(dlsym(lib_, "nvmlInit_v2"));
  api.handle_by_uuid = reinterpret_cast<HandleByUuidFn>(dlsym(lib_, "nvmlDeviceGetHandleByUUID"));
  api.clock_info = reinterpret_cast<ClockInfoFn>(dlsym(lib_, "nvmlDeviceGetClockInfo"));
  api.power = reinterpret_cast<PowerFn>(dlsym(lib_, "nvmlDeviceGetPowerUsage"));
  api.reasons = reinterpret_cast<ReasonsFn>(dlsym(lib_, "nvmlDeviceGetCurrentClocksEventReasons"));
  if (api.reasons == nullptr) api.reasons = reinterpret_cast<ReasonsFn>(dlsym(lib_, "nvmlDeviceGetCurrentClocksThrottleReasons"));
  api.shutdown = reinterpret_cast<ShutdownFn>(dlsym(lib_, "nvmlShutdown"));
  if (init == nullptr || api.handle_by_uuid == nullptr || api.clock_info == nullptr) {
    why_ = "libnvidia-ml.so.1 lacks nvmlInit_v2 / nvmlDeviceGetHandleByUUID / nvmlDeviceGetClockInfo";
    return;
  }
  if (int rc = init(); rc != 0) {
    why_ = "nvmlInit_v2 returned " + std::to_string(rc);
    return;
  }
  available_ = true;
}

Nvml::~Nvml() {
  if (available_ && api.shutdown != nullptr) api.shutdown();
  if (lib_ != nullptr) dlclose(lib_);
}

std::optional<ClockSample> Nvml::sample(const std::string& uuid) {
  if (!available_) return std::nullopt;
  static std::map<std::string, nvmlDevice_t> handles;
  auto it = handles.find(uuid);
  if (it == handles.end()) {
    nvmlDevice_t h = nullptr;
    if (api.handle_by_uuid(uuid.c_str(), &h) != 0) return std::nullopt;
    it = handles.emplace(uuid, h).first;
  }
  ClockSample s;
  if (api.clock_info(it->second, kNvmlClockSm, &s.sm_mhz) != 0) return std::nullopt;
  api.clock_info(it->second, kNvmlClockMem, &s.mem_mhz);
  if (api.power != nullptr) api.power(it->second, &s.power_mw);
  unsigned long long reasons = 0;
  if (api.reasons != nullptr && api.reasons(it->second, &reasons) == 0) s.event_reasons = reasons;
  return s;
}

}  // namespace archbench
