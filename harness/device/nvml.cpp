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
using ErrorStringFn = const char* (*)(int);
using StringFn = int (*)(char*, unsigned);
using IntFn = int (*)(int*);
using CountFn = int (*)(unsigned*);
using HandleByIndexFn = int (*)(unsigned, nvmlDevice_t*);
using DeviceStringFn = int (*)(nvmlDevice_t, char*, unsigned);
using TwoUnsignedFn = int (*)(nvmlDevice_t, unsigned*, unsigned*);  // MIG mode, ECC mode (enums are ints)
using OneUnsignedFn = int (*)(nvmlDevice_t, unsigned*);             // persistence mode
using EccErrorsFn = int (*)(nvmlDevice_t, int, int, unsigned long long*);
using RemappedRowsFn = int (*)(nvmlDevice_t, unsigned*, unsigned*, unsigned*, unsigned*);
using ParentFn = int (*)(nvmlDevice_t, nvmlDevice_t*);
constexpr int kNvmlClockSm = 1;
constexpr int kNvmlClockMem = 2;
constexpr int kNvmlMemoryErrorUncorrected = 1;
constexpr int kNvmlVolatileEcc = 0;

struct Api {
  HandleByUuidFn handle_by_uuid = nullptr;
  ClockInfoFn clock_info = nullptr;
  PowerFn power = nullptr;
  ReasonsFn reasons = nullptr;
  ShutdownFn shutdown = nullptr;
  ErrorStringFn error_string = nullptr;
  StringFn driver_version = nullptr;
  IntFn cuda_driver_version = nullptr;
  CountFn count = nullptr;
  HandleByIndexFn handle_by_index = nullptr;
  DeviceStringFn uuid = nullptr;
  TwoUnsignedFn mig_mode = nullptr;
  OneUnsignedFn persistence = nullptr;
  TwoUnsignedFn ecc_mode = nullptr;
  EccErrorsFn ecc_errors = nullptr;
  RemappedRowsFn remapped_rows = nullptr;
  ParentFn mig_parent = nullptr;
};
Api api;

template <typename Fn>
Fn symbol(void* lib, const char* name, const char* fallback = nullptr) {
  void* p = dlsym(lib, name);
  if (p == nullptr && fallback != nullptr) p = dlsym(lib, fallback);
  return reinterpret_cast<Fn>(p);
}

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
  api.error_string = symbol<ErrorStringFn>(lib_, "nvmlErrorString");
  api.driver_version = symbol<StringFn>(lib_, "nvmlSystemGetDriverVersion");
  api.cuda_driver_version = symbol<IntFn>(lib_, "nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion");
  api.count = symbol<CountFn>(lib_, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
  api.handle_by_index = symbol<HandleByIndexFn>(lib_, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
  api.uuid = symbol<DeviceStringFn>(lib_, "nvmlDeviceGetUUID");
  api.mig_mode = symbol<TwoUnsignedFn>(lib_, "nvmlDeviceGetMigMode");
  api.persistence = symbol<OneUnsignedFn>(lib_, "nvmlDeviceGetPersistenceMode");
  api.ecc_mode = symbol<TwoUnsignedFn>(lib_, "nvmlDeviceGetEccMode");
  api.ecc_errors = symbol<EccErrorsFn>(lib_, "nvmlDeviceGetTotalEccErrors");
  api.remapped_rows = symbol<RemappedRowsFn>(lib_, "nvmlDeviceGetRemappedRows");
  api.mig_parent = symbol<ParentFn>(lib_, "nvmlDeviceGetDeviceHandleFromMigDeviceHandle");
  if (init == nullptr || api.handle_by_uuid == nullptr || api.clock_info == nullptr) {
    why_ = "libnvidia-ml.so.1 lacks nvmlInit_v2 / nvmlDeviceGetHandleByUUID / nvmlDeviceGetClockInfo";
    return;
  }
  init_status_ = init();
  if (init_status_ != 0) {
    why_ = "nvmlInit_v2 returned " + std::to_string(init_status_);
    if (api.error_string != nullptr) why_ += std::string(" (") + api.error_string(init_status_) + ")";
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

std::optional<NvmlSystem> Nvml::system() {
  if (!available_) return std::nullopt;
  NvmlSystem s;
  char buf[96] = {};
  if (api.driver_version != nullptr && api.driver_version(buf, sizeof buf) == 0) s.driver_version = buf;
  if (api.cuda_driver_version != nullptr) api.cuda_driver_version(&s.cuda_driver_version);
  unsigned count = 0;
  if (api.count != nullptr && api.handle_by_index != nullptr && api.uuid != nullptr && api.count(&count) == 0) {
    for (unsigned i = 0; i < count; ++i) {
      nvmlDevice_t h = nullptr;
      char uuid[96] = {};
      if (api.handle_by_index(i, &h) == 0 && api.uuid(h, uuid, sizeof uuid) == 0) s.uuids.emplace_back(uuid);
      else s.uuids.emplace_back("?");
    }
  }
  return s;
}

std::optional<NvmlDeviceState> Nvml::state(const std::string& uuid) {
  if (!available_) return std::nullopt;
  nvmlDevice_t h = nullptr;
  if (api.handle_by_uuid(uuid.c_str(), &h) != 0) return std::nullopt;
  NvmlDeviceState st;
  if (api.reasons != nullptr) {
    unsigned long long r = 0;
    if (api.reasons(h, &r) == 0) st.event_reasons = r;
  }
  // MIG mode, persistence, ECC and row remapping belong to the whole GPU.
  nvmlDevice_t gpu = h;
  if (uuid.starts_with("MIG-") && api.mig_parent != nullptr) {
    nvmlDevice_t parent = nullptr;
    if (api.mig_parent(h, &parent) == 0) gpu = parent;
  }
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (api.mig_mode != nullptr && api.mig_mode(gpu, &a, &b) == 0) {
    st.mig_enabled = a == 1;
    st.mig_pending = b == 1;
  }
  if (api.persistence != nullptr && api.persistence(gpu, &a) == 0) st.persistence = a == 1;
  if (api.ecc_mode != nullptr && api.ecc_mode(gpu, &a, &b) == 0) {
    st.ecc_enabled = a == 1;
    st.ecc_pending = b == 1;
  }
  unsigned long long errors = 0;
  if (st.ecc_enabled.value_or(false) && api.ecc_errors != nullptr &&
      api.ecc_errors(gpu, kNvmlMemoryErrorUncorrected, kNvmlVolatileEcc, &errors) == 0) {
    st.ecc_uncorrected = errors;
  }
  if (api.remapped_rows != nullptr && api.remapped_rows(gpu, &a, &b, &c, &d) == 0) {
    st.remap_pending = c != 0;
    st.remap_failure = d != 0;
  }
  return st;
}

}  // namespace archbench
