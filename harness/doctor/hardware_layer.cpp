#include "harness/doctor/hardware_layer.hpp"

#include "harness/device/driver_errors.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/doctor/text.hpp"
#include "harness/util/cuda_check.hpp"

namespace archbench::doctor {

using enum FieldCause;
namespace {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool is_driver_version(std::string_view v) {  // "580.159.04", not a soname's "1"
  return v.find('.') != std::string_view::npos && std::isdigit(static_cast<unsigned char>(v.front())) != 0;
}

// An ordinal entry as strtoul would read it.
struct Ordinal {
  bool digits = false;
  bool negative = false;
  long long value = 0;
  std::string trailing;  // what follows the number
};
Ordinal read_ordinal(std::string_view entry) {
  Ordinal o;
  size_t i = 0;
  while (i < entry.size() && std::isspace(static_cast<unsigned char>(entry[i])) != 0) ++i;
  if (i < entry.size() && (entry[i] == '+' || entry[i] == '-')) o.negative = entry[i++] == '-';
  const size_t start = i;
  while (i < entry.size() && std::isdigit(static_cast<unsigned char>(entry[i])) != 0) {
    if (o.value < 1'000'000) o.value = o.value * 10 + (entry[i] - '0');
    ++i;
  }
  o.digits = i > start;
  o.trailing = trim(entry.substr(i));
  return o;
}

bool looks_like_uuid_tail(std::string_view s, bool mig) {
  if (s.empty()) return false;
  return std::ranges::all_of(s, [&](char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0 || c == '-' ||
           (mig && (c == '/' || c == 'G' || c == 'P' || c == 'U'));
  });
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string device_label(const DeviceInfo& d) { return fmt::format("device {} ({})", d.index, d.name); }

const char* kVisibleFix =
    "list each GPU once, by an index below the GPU count (nvidia-smi -L numbers them in PCI order: set "
    "CUDA_DEVICE_ORDER=PCI_BUS_ID to match) or by UUID (GPU-... or MIG-..., from nvidia-smi -L), or unset it; "
    "set it before the process starts (CUDA reads it once, when it initialises)";

// What to do when this process has no usable driver at all.
std::string no_driver_fix(const HardwareFacts& f) {
  const int branch = arch::minimum_driver_branch_for_runtime(f.env.runtime.major());
  if (f.in_container && f.device_nodes.empty()) {
    return "start the container with the GPUs: docker run --gpus all (NVIDIA Container Toolkit), --device "
           "nvidia.com/gpu=all (CDI / Podman), or request nvidia.com/gpu in Kubernetes";
  }
  if (!f.kernel_module) {
    return fmt::format(
        "install the NVIDIA driver (r{} or newer for CUDA {}) and load its kernel module; nvidia-smi "
        "must list the GPU",
        branch, f.env.runtime.str());
  }
  if (f.libcuda_path.empty()) {
    return "the kernel module is loaded but this process finds no libcuda.so.1: install the driver's user-space "
           "libraries matching the module, or in a container add 'compute' to NVIDIA_DRIVER_CAPABILITIES";
  }
  return "run nvidia-smi: it must list the GPU; check dmesg for NVRM / Xid messages";
}

// NVML's GPU count and UUIDs; -1 and none when NVML is unavailable (the checks that need them skip).
int nvml_gpu_count(const HardwareFacts& f) {
  return f.nvml_available && f.nvml ? static_cast<int>(f.nvml->uuids.size()) : -1;
}
std::vector<std::string> nvml_uuids(const HardwareFacts& f) {
  return f.nvml_available && f.nvml ? f.nvml->uuids : std::vector<std::string>{};
}

}  // namespace

void check_device_count(const HardwareFacts& f, Checklist& out) {
  const Environment& e = f.env;
  if (e.usable()) {
    Finding ok(Layer::Hardware, "device-count", Outcome::Pass,
               fmt::format("{} CUDA device(s) visible", e.devices.size()));
    for (size_t i = 0; i < e.devices.size(); ++i) {
      const auto& d = e.devices[i];
      const std::string pci =
          i < f.gpus.size() && !f.gpus[i].pci_bus_id.empty() ? " | PCI " + f.gpus[i].pci_bus_id : "";
      ok.details.push_back(fmt::format("device {}: {} | CC {} | {} SMs | {:.1f} GiB | {}{}", d.index, d.name,
                                       d.cc.str(), d.sm_count, static_cast<double>(d.memory_bytes) / (1 << 30), d.uuid,
                                       pci));
    }
    out.add(std::move(ok));
    return;
  }
  if (e.device_count_error == 0) {
    out.add(
        Finding(Layer::Hardware, "device-count", Outcome::Fail, "cudaGetDeviceCount succeeded but reports 0 devices",
                "the driver works but no GPU is visible to this process (CUDA_VISIBLE_DEVICES, the container's GPU "
                "list, or MIG without a compute instance)",
                "check CUDA_VISIBLE_DEVICES and nvidia-smi -L; in a container start it with --gpus all",
                {NoDriverInContainer, VisibleDevicesMistake, MigInstance}));
    return;
  }
  Finding bad(Layer::Hardware, "device-count", Outcome::Fail,
              "cudaGetDeviceCount failed: " + describe_cuda_error(static_cast<cudaError_t>(e.device_count_error)));
  DriverErrorExplanation why = explain_driver_error(e.device_count_error, e.driver, e.runtime);
  bad.cause = std::move(why.cause);
  // With no driver at all, the facts gathered here (module loaded? container?) say more than the table.
  bad.fix = e.device_count_error == cudaErrorInsufficientDriver && !e.driver.known() ? no_driver_fix(f) : why.fix;
  bad.field_causes = std::move(why.field_causes);
  out.add(std::move(bad));
}

void check_device_nodes(const HardwareFacts& f, Checklist& out) {
  const bool usable = f.env.usable();
  if (!f.inaccessible_nodes.empty()) {
    out.add(Finding(Layer::Hardware, "device-nodes", usable ? Outcome::Warn : Outcome::Fail,
                    "this user cannot open " + first_few(f.inaccessible_nodes, 4),
                    "the driver is reached through these device files; without read-write access CUDA finds no GPU",
                    "add the user to the group that owns them (often 'video' or 'render'), or fix the container's "
                    "device cgroup (--gpus / --device)")
                .with_details(f.device_nodes));
    return;
  }
  if (f.device_nodes.empty()) {
    out.add(Finding(
        Layer::Hardware, "device-nodes", usable ? Outcome::Pass : Outcome::Fail,
        usable ? "no /dev/nvidia* nodes, yet CUDA works (WSL or another transport)" : "no /dev/nvidia* device nodes",
        usable ? ""
               : "no GPU device file exists in this (container's) /dev: the driver is not loaded, or the container was "
                 "started without GPUs",
        usable ? "" : no_driver_fix(f), usable ? FieldCauses{} : FieldCauses{NoDriverInContainer}));
    return;
  }
  const bool has_ctl = std::ranges::find(f.device_nodes, "/dev/nvidiactl") != f.device_nodes.end();
  const bool has_uvm = std::ranges::find(f.device_nodes, "/dev/nvidia-uvm") != f.device_nodes.end();
  if (!has_ctl || !has_uvm) {
    out.add(
        Finding(Layer::Hardware, "device-nodes", usable ? Outcome::Warn : Outcome::Fail,
                std::string("missing ") + (!has_ctl ? "/dev/nvidiactl" : "") + (!has_ctl && !has_uvm ? " and " : "") +
                    (!has_uvm ? "/dev/nvidia-uvm" : ""),
                "CUDA needs nvidiactl and nvidia-uvm besides the per-GPU nodes (nvidia-uvm appears only after the "
                "nvidia-uvm module loads)",
                "load the module and create the nodes (nvidia-modprobe -u -c=0), or start the container with --gpus "
                "so the runtime injects them",
                {NoDriverInContainer})
            .with_details(f.device_nodes));
    return;
  }
  out.add(Finding(Layer::Hardware, "device-nodes", Outcome::Pass,
                  "device nodes present and accessible: " + first_few(f.device_nodes, 6))
              .with_details(f.device_nodes));
}

void check_kernel_module(const HardwareFacts& f, Checklist& out) {
  const bool usable = f.env.usable();
  std::string userspace, source;
  if (is_driver_version(f.libcuda_version)) {
    userspace = f.libcuda_version;
    source = f.libcuda_path;
  } else if (f.nvml && !f.nvml->driver_version.empty()) {
    userspace = f.nvml->driver_version;
    source = "NVML";
  }
  if (!f.kernel_module) {
    out.add(Finding(Layer::Hardware, "kernel-module", usable ? Outcome::Warn : Outcome::Fail,
                    "/proc/driver/nvidia/version does not exist",
                    usable ? "the kernel module's version cannot be compared with the user-space driver's (WSL, or a "
                             "container without the host's /proc/driver)"
                           : "the nvidia kernel module is not loaded here (or, in a container, the host has none)",
                    usable ? "nothing to do if nvidia-smi agrees with the driver you installed" : no_driver_fix(f),
                    usable ? FieldCauses{} : FieldCauses{NoDriverInContainer}));
    return;
  }
  const auto module = kernel_module_version(*f.kernel_module);
  const std::string first_line =
      split(*f.kernel_module, '\n').empty() ? "" : trim(split(*f.kernel_module, '\n').front());
  if (!module) {
    out.add(Finding(Layer::Hardware, "kernel-module", Outcome::Warn,
                    "cannot read a version from /proc/driver/nvidia/version", "its first line has no version number",
                    "compare nvidia-smi's driver version with the installed packages")
                .with_details({first_line}));
    return;
  }
  if (userspace.empty()) {
    out.add(Finding(Layer::Hardware, "kernel-module", usable ? Outcome::Pass : Outcome::Warn,
                    "kernel module " + *module +
                        "; the user-space driver's version is unknown (no libcuda.so.<version> "
                        "loaded, no NVML)",
                    usable ? "" : "no user-space driver library was found to compare with the module",
                    usable ? "" : no_driver_fix(f))
                .with_details({first_line}));
    return;
  }
  if (*module != userspace) {
    out.add(
        Finding(Layer::Hardware, "kernel-module", usable ? Outcome::Warn : Outcome::Fail,
                "kernel module " + *module + " but user-space driver " + userspace + " (" + source + ")",
                "the driver packages were upgraded without a reboot: the old kernel module is still loaded "
                "(nvidia-smi says 'Driver/library version mismatch', CUDA returns 803)",
                "reboot, or unload and reload the nvidia modules (rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia; "
                "modprobe nvidia); hold the driver packages (apt-mark hold) against unattended upgrades",
                {KernelModuleMismatch})
            .with_details({first_line}));
    return;
  }
  out.add(Finding(Layer::Hardware, "kernel-module", Outcome::Pass,
                  "kernel module " + *module + " = user-space driver " + userspace + " (" + source + ")")
              .with_details({first_line}));
}

void check_driver_cuda_version(const HardwareFacts& f, Checklist& out) {
  const auto& e = f.env;
  if (!e.driver.known()) {
    out.add(Finding(Layer::Hardware, "driver-cuda-version", Outcome::Skip,
                    "no driver: its CUDA version is unknown (this runtime is CUDA " + e.runtime.str() + ")"));
    return;
  }
  const int branch = arch::minimum_driver_branch_for_runtime(e.runtime.major());
  if (e.driver.major() < e.runtime.major()) {
    out.add(
        Finding(Layer::Hardware, "driver-cuda-version", Outcome::Fail,
                "the driver supports CUDA " + e.driver.str() + ", older than this runtime's CUDA " + e.runtime.str(),
                "a CUDA " + std::to_string(e.runtime.major()) + ".x runtime needs driver r" + std::to_string(branch) +
                    " or newer (cudaErrorInsufficientDriver, 35)",
                "install driver r" + std::to_string(branch) +
                    " or newer; on datacenter GPUs the cuda-compat forward-compatibility package is the alternative",
                {DriverOlderThanRuntime}));
  } else if (e.driver.value < e.runtime.value) {
    const auto isa = arch::ptx_isa_of_cuda(e.driver);
    out.add(Finding(Layer::Hardware, "driver-cuda-version", Outcome::Warn,
                    "the driver supports CUDA " + e.driver.str() + ", older than this runtime's CUDA " +
                        e.runtime.str() + " (minor-version compatibility)",
                    "it runs, but this driver JIT-compiles PTX only up to ISA " +
                        (isa ? isa->str() : std::string("?")) +
                        " (newer PTX fails with 222) and newer APIs return cudaErrorCallRequiresNewerDriver (36)",
                    "update the driver to the branch of CUDA " + e.runtime.str() + " or newer", {PtxNewerThanDriver}));
  } else {
    out.add(Finding(Layer::Hardware, "driver-cuda-version", Outcome::Pass,
                    "driver CUDA " + e.driver.str() + " >= runtime CUDA " + e.runtime.str()));
  }
}

void check_nvml(const HardwareFacts& f, Checklist& out) {
  const bool usable = f.env.usable();
  if (f.nvml_available) {
    std::string s = "NVML: driver " + (f.nvml && !f.nvml->driver_version.empty() ? f.nvml->driver_version : "?");
    if (f.nvml && f.nvml->cuda_driver_version > 0)
      s += " (CUDA " + arch::CudaVersion{f.nvml->cuda_driver_version}.str() + ")";
    if (f.nvml) s += fmt::format(", {} GPU(s) on the system", f.nvml->uuids.size());
    Finding ok(Layer::Hardware, "nvml", Outcome::Pass, s);
    if (f.nvml) {
      for (size_t i = 0; i < f.nvml->uuids.size(); ++i)
        ok.details.push_back(fmt::format("NVML GPU {}: {}", i, f.nvml->uuids[i]));
    }
    out.add(std::move(ok));
    return;
  }
  if (f.nvml_init_status == 18) {  // NVML_ERROR_LIB_RM_VERSION_MISMATCH
    out.add(Finding(Layer::Hardware, "nvml", usable ? Outcome::Warn : Outcome::Fail, "NVML: " + f.nvml_why,
                    "NVML's library and the loaded kernel module are different driver versions",
                    "reboot, or reload the nvidia kernel modules; remove a stale libnvidia-ml from LD_LIBRARY_PATH",
                    {KernelModuleMismatch}));
    return;
  }
  if (usable && f.nvml_init_status == -1) {
    out.add(
        Finding(Layer::Hardware, "nvml", Outcome::Warn, "NVML unavailable: " + f.nvml_why,
                "without NVML the MIG, persistence, ECC and clock-event checks are skipped",
                "install the driver's libnvidia-ml.so.1; in a container add 'utility' to NVIDIA_DRIVER_CAPABILITIES"));
    return;
  }
  out.add(Finding(Layer::Hardware, "nvml", Outcome::Skip,
                  "NVML unavailable (" + f.nvml_why + "): MIG, persistence, ECC and clock-event checks skipped"));
}

void check_compute_mode(const DeviceInfo& d, const GpuFacts& g, Checklist& out) {
  if (g.compute_mode == cudaComputeModeProhibited) {
    out.add(Finding(Layer::Hardware, "compute-mode", Outcome::Fail, device_label(d) + ": compute mode is Prohibited",
                    "no process may create a CUDA context on it", "nvidia-smi -i <gpu> -c DEFAULT (as root)"));
  } else if (g.compute_mode == cudaComputeModeExclusiveProcess) {
    out.add(Finding(Layer::Hardware, "compute-mode", Outcome::Warn,
                    device_label(d) + ": compute mode is Exclusive-Process",
                    "one process at a time: archbench's workers take turns, but any other process on this GPU makes "
                    "them fail with cudaErrorDevicesUnavailable (46)",
                    "run with the GPU otherwise idle, or nvidia-smi -c DEFAULT"));
  }
}

void check_gpu_state(const DeviceInfo& d, const GpuFacts& g, bool nvml_available, Checklist& out) {
  // Without NVML at all the "nvml" finding already says why these checks are missing.
  if (g.nvml || !nvml_available) return;
  out.add(Finding(Layer::Hardware, "gpu-state", Outcome::Skip, device_label(d) + ": NVML has no handle for " + d.uuid));
}

void check_mig(const DeviceInfo& d, const GpuFacts& g, Checklist& out) {
  if (!g.nvml || !g.nvml->mig_enabled.has_value()) return;
  const NvmlDeviceState& s = *g.nvml;
  const bool on = *s.mig_enabled;
  const std::string who = device_label(d);
  if (s.mig_pending.has_value() && *s.mig_pending != on) {
    out.add(Finding(
        Layer::Hardware, "mig", Outcome::Warn,
        who + ": MIG mode is " + (on ? "on" : "off") + " but " + (*s.mig_pending ? "on" : "off") + " is pending",
        "a MIG mode change takes effect only after a GPU reset",
        "reset the GPU (nvidia-smi -r) with no processes on it, or reboot",
        {MigInstance}));
    return;
  }
  const bool instance = d.uuid.starts_with("MIG-");
  out.add(Finding(Layer::Hardware, "mig", Outcome::Pass,
                  who + ": MIG mode " + (on ? "on" : "off") +
                      (on ? std::string("; CUDA uses ") + (instance ? "the MIG instance " : "") + d.uuid +
                                fmt::format(" ({} SMs, {:.1f} GiB: a slice of the GPU)", d.sm_count,
                                            static_cast<double>(d.memory_bytes) / (1 << 30))
                          : std::string())));
}

void check_persistence(const DeviceInfo& d, const GpuFacts& g, Checklist& out) {
  if (!g.nvml || !g.nvml->persistence.has_value()) return;
  if (*g.nvml->persistence) {
    out.add(Finding(Layer::Hardware, "persistence", Outcome::Pass, device_label(d) + ": persistence mode on"));
    return;
  }
  out.add(Finding(Layer::Hardware, "persistence", Outcome::Warn, device_label(d) + ": persistence mode off",
                  "the driver tears the GPU state down when the last process exits: every process start pays the "
                  "initialisation again, and application clocks can reset",
                  "on the host: nvidia-smi -pm 1, or run nvidia-persistenced"));
}

void check_clock_events(const DeviceInfo& d, const GpuFacts& g, Checklist& out) {
  if (!g.nvml || !g.nvml->event_reasons.has_value()) return;
  const uint64_t r = *g.nvml->event_reasons;
  constexpr uint64_t kSlow = 0x8 | 0x20 | 0x40 | 0x80;  // hw slowdown, sw thermal, hw thermal, hw power brake
  constexpr uint64_t kCap = 0x4;                        // sw power cap
  if ((r & (kSlow | kCap)) == 0) {
    out.add(Finding(Layer::Hardware, "clock-events", Outcome::Pass,
                    device_label(d) + ": clock-event reasons: " + describe_event_reasons(r)));
    return;
  }
  out.add(Finding(Layer::Hardware, "clock-events", Outcome::Warn,
                  device_label(d) + ": clocks are held down now: " + describe_event_reasons(r),
                  (r & kSlow) != 0 ? "thermal or hardware slowdown: timings measured now are low and noisy"
                                   : "the power cap limits the clocks even at this load: timings are low",
                  "check cooling and power (nvidia-smi -q -d PERFORMANCE,TEMPERATURE,POWER) before trusting "
                  "timings; the run's JSON records the reasons per sample"));
}

void check_ecc(const DeviceInfo& d, const GpuFacts& g, Checklist& out) {
  if (!g.nvml || !g.nvml->ecc_enabled.has_value()) return;
  const NvmlDeviceState& s = *g.nvml;
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
    out.add(Finding(Layer::Hardware, "ecc", Outcome::Pass,
                    device_label(d) + ": ECC " +
                        (*s.ecc_enabled ? "on, no uncorrectable errors, no pending row remapping" : "off")));
    return;
  }
  out.add(Finding(Layer::Hardware, "ecc", Outcome::Warn, device_label(d) + ": " + join(issues, "; "),
                  "memory errors or pending memory repairs: results on this GPU may be wrong until it is reset",
                  join(fixes, "; ")));
}

void check_each_gpu(const HardwareFacts& f, Checklist& out) {
  for (size_t i = 0; i < f.env.devices.size(); ++i) {
    const DeviceInfo& d = f.env.devices[i];
    const GpuFacts g = i < f.gpus.size() ? f.gpus[i] : GpuFacts{};
    check_compute_mode(d, g, out);
    check_gpu_state(d, g, f.nvml_available, out);
    check_mig(d, g, out);
    check_persistence(d, g, out);
    check_clock_events(d, g, out);
    check_ecc(d, g, out);
  }
}

void check_visible_devices(const HardwareFacts& f, Checklist& out) {
  const auto it = f.env_vars.find("CUDA_VISIBLE_DEVICES");
  const std::optional<std::string> value = it == f.env_vars.end() ? std::nullopt : std::optional(it->second);
  const VisibleDevices v = analyze_visible_devices(value, nvml_gpu_count(f), nvml_uuids(f));
  const bool usable = f.env.usable();
  if (!v.set) {
    out.add(Finding(Layer::Hardware, "visible-devices", Outcome::Pass,
                    "CUDA_VISIBLE_DEVICES is not set: every GPU is visible"));
    return;
  }
  const std::string shown = "CUDA_VISIBLE_DEVICES='" + v.value + "'";
  const FieldCauses causes = v.value.find("MIG-") != std::string::npos
                                 ? FieldCauses{VisibleDevicesMistake, MigInstance}
                                 : FieldCauses{VisibleDevicesMistake};
  if (v.hides_all) {
    const std::string cause = join(v.problems, "; ");
    if (usable) {
      out.add(Finding(Layer::Hardware, "visible-devices", Outcome::Warn,
                      shown + " should hide every GPU, yet CUDA sees " + std::to_string(f.env.devices.size()),
                      cause + " (this driver reads the list differently from the rule the doctor knows)", kVisibleFix,
                      causes));
    } else {
      out.add(Finding(Layer::Hardware, "visible-devices", Outcome::Fail, shown + " hides every GPU",
                      cause + "; nothing is left, so CUDA reports no device (cudaErrorNoDevice, 100)", kVisibleFix,
                      causes));
    }
  } else if (!v.problems.empty()) {
    out.add(Finding(Layer::Hardware, "visible-devices", Outcome::Warn,
                    shown + " resolves to " + join(v.selected, ",") + ", which is probably not what was meant",
                    join(v.problems, "; "), kVisibleFix, causes));
  } else if (!usable) {
    out.add(Finding(Layer::Hardware, "visible-devices", Outcome::Warn,
                    shown + " selects " + join(v.selected, ",") +
                        ", which cannot be checked against the GPUs here (no usable driver)",
                    "if an entry names a GPU that does not exist, CUDA hides every GPU (cudaErrorNoDevice, 100): a "
                    "set CUDA_VISIBLE_DEVICES is a common cause of 'no device'",
                    "check the value against nvidia-smi -L on this machine, or unset it", causes));
  } else {
    Finding ok(Layer::Hardware, "visible-devices", Outcome::Pass, shown + " selects " + join(v.selected, ","));
    for (const auto& d : f.env.devices)
      ok.details.push_back(fmt::format("CUDA device {} = {} ({})", d.index, d.uuid, d.name));
    out.add(std::move(ok));
  }
}

void check_device_order(const HardwareFacts& f, Checklist& out) {
  const auto order = f.env_vars.find("CUDA_DEVICE_ORDER");
  const int gpus = std::max(nvml_gpu_count(f), static_cast<int>(f.env.devices.size()));
  if (order != f.env_vars.end() && order->second != "FASTEST_FIRST" && order->second != "PCI_BUS_ID") {
    out.add(Finding(Layer::Hardware, "device-order", Outcome::Warn,
                    "CUDA_DEVICE_ORDER='" + order->second + "' is not a value CUDA knows",
                    "CUDA reads FASTEST_FIRST (the default) or PCI_BUS_ID",
                    "set CUDA_DEVICE_ORDER=PCI_BUS_ID, or unset it", {VisibleDevicesMistake}));
  } else if (order == f.env_vars.end() && gpus > 1) {
    out.add(Finding(Layer::Hardware, "device-order", Outcome::Warn,
                    fmt::format("CUDA_DEVICE_ORDER is not set on a machine with {} GPUs", gpus),
                    "CUDA numbers GPUs fastest first, nvidia-smi and NVML by PCI bus: CUDA's device N may not be "
                    "nvidia-smi's GPU N, so indices in CUDA_VISIBLE_DEVICES or --device can pick the wrong GPU",
                    "export CUDA_DEVICE_ORDER=PCI_BUS_ID, or select GPUs by UUID", {VisibleDevicesMistake}));
  } else {
    out.add(Finding(Layer::Hardware, "device-order", Outcome::Pass,
                    order == f.env_vars.end() ? std::string("CUDA_DEVICE_ORDER is not set (FASTEST_FIRST)") +
                                                    (gpus > 1 ? "" : "; with one GPU the order does not matter")
                                              : "CUDA_DEVICE_ORDER=" + order->second));
  }
}

void check_container(const HardwareFacts& f, Checklist& out) {
  auto var = [&](const char* name) -> std::optional<std::string> {
    auto it = f.env_vars.find(name);
    return it == f.env_vars.end() ? std::nullopt : std::optional(it->second);
  };
  const auto visible = var("NVIDIA_VISIBLE_DEVICES");
  const auto caps = var("NVIDIA_DRIVER_CAPABILITIES");
  std::vector<std::string> details;
  if (f.in_container) details.push_back("container: " + f.container_evidence);
  for (const char* name : {"NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA"}) {
    if (auto v = var(name)) details.push_back(std::string(name) + "=" + *v);
  }
  const std::string where = f.in_container ? "in a container (" + f.container_evidence + ")" : "not in a container";
  if (f.env.usable() || !f.in_container) {
    out.add(Finding(Layer::Hardware, "container", Outcome::Pass, where).with_details(details));
    return;
  }
  const FieldCauses no_driver{NoDriverInContainer};
  if (caps && *caps != "all" && caps->find("compute") == std::string::npos) {
    out.add(Finding(Layer::Hardware, "container", Outcome::Fail,
                    "NVIDIA_DRIVER_CAPABILITIES='" + *caps + "' lacks 'compute'",
                    "the NVIDIA container runtime mounts libcuda.so.1 only for the 'compute' capability",
                    "start the container with NVIDIA_DRIVER_CAPABILITIES=compute,utility (or all)", no_driver)
                .with_details(details));
  } else if (visible && (*visible == "void" || *visible == "none" || visible->empty())) {
    out.add(Finding(Layer::Hardware, "container", Outcome::Fail,
                    "NVIDIA_VISIBLE_DEVICES='" + *visible + "' gives this container no GPU",
                    "the NVIDIA container runtime injects only the GPUs this variable lists",
                    "start the container with --gpus all (or NVIDIA_VISIBLE_DEVICES=all)", no_driver)
                .with_details(details));
  } else if (f.device_nodes.empty()) {
    out.add(Finding(Layer::Hardware, "container", Outcome::Fail,
                    visible
                        ? "NVIDIA_VISIBLE_DEVICES='" + *visible + "' is set, but no GPU was injected (no /dev/nvidia*)"
                        : "this container was started without GPUs (no NVIDIA_VISIBLE_DEVICES, no /dev/nvidia*)",
                    visible ? "the image asks for GPUs but the container was not started by the NVIDIA runtime"
                            : "docker and podman give a container no GPU unless asked",
                    "docker run --gpus all (with the NVIDIA Container Toolkit installed on the host), --device "
                    "nvidia.com/gpu=all (CDI / Podman), or request nvidia.com/gpu in Kubernetes",
                    no_driver)
                .with_details(details));
  } else {
    out.add(
        Finding(Layer::Hardware, "container", Outcome::Pass, where + " with GPU device nodes").with_details(details));
  }
}

std::optional<std::string> kernel_module_version(std::string_view proc_text) {
  for (const auto& line : split(proc_text, '\n')) {
    if (line.find("NVRM version:") == std::string::npos) continue;
    for (const auto& word : split(line, ' ')) {
      const std::string w = trim(word);
      if (w.size() >= 3 && std::isdigit(static_cast<unsigned char>(w.front())) != 0 &&
          w.find('.') != std::string::npos &&
          std::ranges::all_of(w, [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.'; })) {
        return w;
      }
    }
  }
  return std::nullopt;
}

VisibleDevices analyze_visible_devices(const std::optional<std::string>& value, int gpu_count,
                                       const std::vector<std::string>& uuids) {
  VisibleDevices v;
  if (!value) return v;
  v.set = true;
  v.value = *value;
  const std::string all = trim(*value);
  if (all.empty()) {
    v.problems.push_back("the list is empty");
    v.hides_all = true;
    return v;
  }
  const auto entries = split(all, ',');
  const bool uuid_mode = all.starts_with("GPU-") || all.starts_with("MIG-");
  if (!uuid_mode) {
    std::set<long long> seen;
    for (const auto& raw : entries) {
      const Ordinal o = read_ordinal(raw);
      const std::string entry = trim(raw);
      if (!o.digits) {
        std::string hint;
        const std::string l = lower(entry);
        if (entry.starts_with("GPU-") || entry.starts_with("MIG-"))
          hint = " (indices and UUIDs cannot be mixed)";
        else if (l.starts_with("gpu") || l.starts_with("cuda:") || l.starts_with("cuda"))
          hint = " (write the bare index, e.g. 0)";
        v.problems.push_back("'" + entry + "' is not an index" + hint + ": CUDA stops reading the list there");
        break;
      }
      if (o.negative && o.value != 0) {
        v.problems.push_back("'" + entry + "' is negative: CUDA stops reading the list there");
        break;
      }
      if (!o.trailing.empty()) {
        const bool range = o.trailing.front() == '-' || o.trailing.front() == ':';
        v.problems.push_back("'" + entry + "' reads as " + std::to_string(o.value) +
                             (range ? " (ranges are not supported)" : " (the rest of the entry is ignored)"));
      }
      if (gpu_count >= 0 && o.value >= gpu_count) {
        v.problems.push_back(
            fmt::format("index {} is not below the {} GPU(s) on this machine: CUDA stops reading the list there",
                        o.value, gpu_count));
        break;
      }
      if (!seen.insert(o.value).second) {
        v.problems.push_back(
            fmt::format("index {} is listed twice (a repeated entry empties the whole list)", o.value));
        v.selected.clear();
        v.hides_all = true;
        return v;
      }
      v.selected.push_back(std::to_string(o.value));
    }
  } else {
    const std::string prefix = all.substr(0, 4);
    const bool mig = prefix == "MIG-";
    std::set<std::string> resolved;
    for (const auto& raw : entries) {
      const std::string entry = trim(raw);
      if (!entry.starts_with(prefix)) {
        v.problems.push_back("'" + entry + "' is not a " + prefix +
                             " UUID (indices and UUIDs cannot be mixed): CUDA stops reading the list there");
        break;
      }
      if (!looks_like_uuid_tail(std::string_view(entry).substr(4), mig)) {
        v.problems.push_back(
            "'" + entry + "' is not a UUID (" + prefix +
            " followed by hex digits and dashes, as nvidia-smi -L prints): CUDA stops reading the list there");
        break;
      }
      std::string key = lower(entry);
      if (!mig && !uuids.empty()) {
        std::vector<std::string> matches;
        for (const auto& u : uuids) {
          if (lower(u).starts_with(key)) matches.push_back(u);
        }
        if (matches.empty()) {
          v.problems.push_back("'" + entry + "' matches no GPU on this machine: CUDA stops reading the list there");
          break;
        }
        if (matches.size() > 1) {
          v.problems.push_back("'" + entry + "' is ambiguous (matches " + std::to_string(matches.size()) +
                               " GPUs): CUDA stops reading the list there");
          break;
        }
        key = lower(matches.front());
      }
      if (!resolved.insert(key).second) {
        v.problems.push_back("'" + entry + "' names a GPU already listed (a repeated entry empties the whole list)");
        v.selected.clear();
        v.hides_all = true;
        return v;
      }
      v.selected.push_back(entry);
    }
    if (mig && v.selected.size() > 1) {
      v.problems.push_back(fmt::format(
          "{} MIG instances are listed, but a CUDA process enumerates only one MIG instance", v.selected.size()));
    }
  }
  if (v.selected.empty()) v.hides_all = true;
  return v;
}

HardwareFacts gather_hardware_facts(const Environment& env, const RuntimeFacts& runtime) {
  HardwareFacts f;
  f.env = env;
  f.env_vars = runtime.env;
  Nvml& nvml = Nvml::instance();
  f.nvml_available = nvml.available();
  f.nvml_init_status = nvml.init_status();
  f.nvml_why = nvml.why_unavailable();
  f.nvml = nvml.system();
  for (const auto& d : env.devices) {
    GpuFacts g;
    std::array<char, 32> bus{};
    if (cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), d.index) == cudaSuccess)
      g.pci_bus_id = bus.data();
    else
      cudaGetLastError();
    int mode = -1;
    if (cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d.index) == cudaSuccess)
      g.compute_mode = mode;
    else
      cudaGetLastError();
    g.nvml = nvml.state(d.uuid);
    // CUDA's UUID of a MIG instance carries the same bytes NVML names with MIG-.
    if (!g.nvml && d.uuid.starts_with("GPU-")) g.nvml = nvml.state("MIG-" + d.uuid.substr(4));
    f.gpus.push_back(std::move(g));
  }
  std::error_code ec;
  std::vector<std::string> nodes;
  for (fs::directory_iterator it("/dev", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with("nvidia")) nodes.push_back(it->path().string());
  }
  std::ranges::sort(nodes);
  for (const auto& n : nodes) {
    f.device_nodes.push_back(n);
    std::error_code dir_ec;
    // CUDA opens the per-GPU nodes, nvidiactl and nvidia-uvm; -uvm-tools and -modeset serve profilers and displays.
    const std::string name = fs::path(n).filename().string();
    const bool needed = name == "nvidiactl" || name == "nvidia-uvm" ||
                        (name.size() > 6 && std::ranges::all_of(name.substr(6), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; }));
    if (needed && !fs::is_directory(n, dir_ec) && access(n.c_str(), R_OK | W_OK) != 0) f.inaccessible_nodes.push_back(n);
  }
  if (fs::exists("/proc/driver/nvidia/version", ec)) f.kernel_module = read_text("/proc/driver/nvidia/version");
  for (const auto& c : runtime.mapped) {
    if (c.family == "libcuda" && f.libcuda_path.empty()) {
      f.libcuda_path = c.real_path;
      f.libcuda_version = c.version;
    }
  }
  for (const auto& c : runtime.reachable) {
    if (c.family == "libcuda") f.libcuda_elsewhere.push_back(c.real_path + (c.stub() ? " (stub)" : ""));
  }
  if (fs::exists("/.dockerenv", ec)) {
    f.in_container = true;
    f.container_evidence = "/.dockerenv exists";
  } else if (fs::exists("/run/.containerenv", ec)) {
    f.in_container = true;
    f.container_evidence = "/run/.containerenv exists";
  } else if (f.env_vars.contains("KUBERNETES_SERVICE_HOST")) {
    f.in_container = true;
    f.container_evidence = "KUBERNETES_SERVICE_HOST is set";
  } else {
    const std::string cgroup = read_text("/proc/1/cgroup");
    for (const char* word : {"docker", "kubepods", "containerd", "libpod", "lxc"}) {
      if (cgroup.find(word) != std::string::npos) {
        f.in_container = true;
        f.container_evidence = std::string("/proc/1/cgroup mentions ") + word;
        break;
      }
    }
  }
  return f;
}

void check_hardware(const HardwareFacts& f, Checklist& out) {
  check_device_count(f, out);
  check_device_nodes(f, out);
  check_kernel_module(f, out);
  check_driver_cuda_version(f, out);
  check_nvml(f, out);
  check_each_gpu(f, out);
  check_visible_devices(f, out);
  check_device_order(f, out);
  check_container(f, out);
}

}  // namespace archbench::doctor
