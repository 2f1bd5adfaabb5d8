// The per-GPU checks of the hardware & driver layer, from CUDA's and NVML's view of each device
// (gpu_checks.hpp).
#include "harness/doctor/gpu_checks.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/doctor/text.hpp"

namespace archbench::doctor {

using enum FieldCause;
namespace {

void compute_mode(const GpuView& v, CheckOutput& out) {
  const DeviceInfo& d = v.device;
  const GpuFacts& g = v.gpu;
  if (g.compute_mode == cudaComputeModeProhibited) {
    out.add(out.finding(Outcome::Fail, device_label(d) + ": compute mode is Prohibited",
                    "no process may create a CUDA context on it", "nvidia-smi -i <gpu> -c DEFAULT (as root)"));
  } else if (g.compute_mode == cudaComputeModeExclusiveProcess) {
    out.add(out.finding(Outcome::Warn,
                    device_label(d) + ": compute mode is Exclusive-Process",
                    "one process at a time: archbench's workers take turns, but any other process on this GPU makes "
                    "them fail with cudaErrorDevicesUnavailable (46)",
                    "run with the GPU otherwise idle, or nvidia-smi -c DEFAULT"));
  }
}

// The checks of one NVML reading (s holds it; when_nvml_has below runs them only then).
void mig(const GpuView& v, const NvmlDeviceState& s, CheckOutput& out) {
  const DeviceInfo& d = v.device;
  const bool on = *s.mig_enabled;
  const std::string who = device_label(d);
  if (s.mig_pending.has_value() && *s.mig_pending != on) {
    out.add(out.finding(Outcome::Warn,
        who + ": MIG mode is " + (on ? "on" : "off") + " but " + (*s.mig_pending ? "on" : "off") + " is pending",
        "a MIG mode change takes effect only after a GPU reset",
        "reset the GPU (nvidia-smi -r) with no processes on it, or reboot",
        {MigInstance}));
    return;
  }
  const bool instance = d.uuid.starts_with("MIG-");
  out.add(out.finding(Outcome::Pass,
                  who + ": MIG mode " + (on ? "on" : "off") +
                      (on ? std::string("; CUDA uses ") + (instance ? "the MIG instance " : "") + d.uuid +
                                fmt::format(" ({} SMs, {:.1f} GiB: a slice of the GPU)", d.sm_count,
                                            static_cast<double>(d.memory_bytes) / (1 << 30))
                          : std::string())));
}

void persistence(const GpuView& v, const NvmlDeviceState& s, CheckOutput& out) {
  const std::string who = device_label(v.device);
  if (*s.persistence) {
    out.add(out.finding(Outcome::Pass, who + ": persistence mode on"));
    return;
  }
  out.add(out.finding(Outcome::Warn, who + ": persistence mode off",
                  "the driver tears the GPU state down when the last process exits: every process start pays the "
                  "initialisation again, and application clocks can reset",
                  "on the host: nvidia-smi -pm 1, or run nvidia-persistenced"));
}

void clock_events(const GpuView& v, const NvmlDeviceState& s, CheckOutput& out) {
  const std::string who = device_label(v.device);
  const uint64_t r = *s.event_reasons;
  constexpr uint64_t kSlow = 0x8 | 0x20 | 0x40 | 0x80;  // hw slowdown, sw thermal, hw thermal, hw power brake
  constexpr uint64_t kCap = 0x4;                        // sw power cap
  if ((r & (kSlow | kCap)) == 0) {
    out.add(out.finding(Outcome::Pass,
                    who + ": clock-event reasons: " + describe_event_reasons(r)));
    return;
  }
  out.add(out.finding(Outcome::Warn,
                  who + ": clocks are held down now: " + describe_event_reasons(r),
                  (r & kSlow) != 0 ? "thermal or hardware slowdown: timings measured now are low and noisy"
                                   : "the power cap limits the clocks even at this load: timings are low",
                  "check cooling and power (nvidia-smi -q -d PERFORMANCE,TEMPERATURE,POWER) before trusting "
                  "timings; the run's JSON records the reasons per sample"));
}

void ecc(const GpuView& v, const NvmlDeviceState& s, CheckOutput& out) {
  const DeviceInfo& d = v.device;
  std::vector<std::string> issues, fixes;
  if (s.ecc_pending.has_value() && *s.ecc_pending != *s.ecc_enabled) {
    issues.push_back(std::string("ECC mode change to ") + (*s.ecc_pending ? "on" : "off") +
                     " is pending until a reboot");
    fixes.emplace_back("reboot (or reset the GPU) to apply the ECC mode");
  }
  if (s.ecc_uncorrected.value_or(0) > 0) {
    issues.push_back(fmt::format("{} uncorrectable ECC error(s) since the driver loaded", *s.ecc_uncorrected));
    fixes.emplace_back(
        "drain the GPU and reset it (nvidia-smi -r); if the errors recur, check nvidia-smi -q -d ECC,ROW_REMAPPER");
  }
  if (s.remap_failure.value_or(false)) {
    issues.emplace_back("row remapping failed");
    fixes.emplace_back("the GPU needs service: take it out of use");
  } else if (s.remap_pending.value_or(false)) {
    issues.emplace_back("a row remapping is pending");
    fixes.emplace_back("reset the GPU (nvidia-smi -r) to apply the remapping");
  }
  if (issues.empty()) {
    out.add(out.finding(Outcome::Pass,
                    device_label(d) + ": ECC " +
                        (*s.ecc_enabled ? "on, no uncorrectable errors, no pending row remapping" : "off")));
    return;
  }
  out.add(out.finding(Outcome::Warn, device_label(d) + ": " + join(issues, "; "),
                  "memory errors or pending memory repairs: results on this GPU may be wrong until it is reset",
                  join(fixes, "; ")));
}

// gpu-state: NVML has no handle for a device CUDA sees (without NVML at all, the "nvml" finding
// already says why the per-GPU checks are missing).
void gpu_state(const GpuView& v, CheckOutput& out) {
  if (v.gpu.nvml || !v.nvml_available) return;
  out.add(out.finding(Outcome::Skip, device_label(v.device) + ": NVML has no handle for " + v.device.uuid));
}

// The check `judge` of the NVML reading `reading`, run only where NVML gave that reading for the GPU.
template <auto reading, void (*judge)(const GpuView&, const NvmlDeviceState&, CheckOutput&)>
void when_nvml_has(const GpuView& v, CheckOutput& out) {
  if (v.gpu.nvml && ((*v.gpu.nvml).*reading).has_value()) judge(v, *v.gpu.nvml, out);
}

constexpr Check<GpuView> kGpuChecks[] = {
    {"compute-mode", compute_mode},
    {"gpu-state", gpu_state},
    {"mig", when_nvml_has<&NvmlDeviceState::mig_enabled, mig>},
    {"persistence", when_nvml_has<&NvmlDeviceState::persistence, persistence>},
    {"clock-events", when_nvml_has<&NvmlDeviceState::event_reasons, clock_events>},
    {"ecc", when_nvml_has<&NvmlDeviceState::ecc_enabled, ecc>},
};

}  // namespace

std::span<const Check<GpuView>> gpu_checks() { return kGpuChecks; }

void each_gpu(const HardwareFacts& f, CheckOutput& out) {
  const GpuFacts unknown;
  for (size_t i = 0; i < f.env.devices.size(); ++i) {
    const GpuView v{f.env.devices[i], i < f.gpus.size() ? f.gpus[i] : unknown, f.nvml_available};
    for (const auto& check : gpu_checks()) {
      CheckOutput o = out.for_check(check.id);
      check.judge(v, o);
    }
  }
}

}  // namespace archbench::doctor
