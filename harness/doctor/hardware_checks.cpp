// The hardware & driver layer's checks (hardware_layer.hpp): pure judges of HardwareFacts, in the
// order of the table at the end.
#include "harness/doctor/hardware_layer.hpp"

#include "harness/doctor/check_table.hpp"
#include "harness/doctor/gpu_checks.hpp"

#include "harness/device/driver_errors.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/doctor/text.hpp"
#include "harness/util/cuda_check.hpp"

namespace archbench::doctor {

using enum FieldCause;
namespace {

bool is_driver_version(std::string_view v) {  // "580.159.04", not a soname's "1"
  return v.find('.') != std::string_view::npos && std::isdigit(static_cast<unsigned char>(v.front())) != 0;
}

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

void device_count(const HardwareFacts& f, CheckOutput& out) {
  const Environment& e = f.env;
  if (e.usable()) {
    Finding ok = out.finding(Outcome::Pass,
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
        out.finding(Outcome::Fail, "cudaGetDeviceCount succeeded but reports 0 devices",
                "the driver works but no GPU is visible to this process (CUDA_VISIBLE_DEVICES, the container's GPU "
                "list, or MIG without a compute instance)",
                "check CUDA_VISIBLE_DEVICES and nvidia-smi -L; in a container start it with --gpus all",
                {NoDriverInContainer, VisibleDevicesMistake, MigInstance}));
    return;
  }
  Finding bad = out.finding(Outcome::Fail,
              "cudaGetDeviceCount failed: " + describe_cuda_error(static_cast<cudaError_t>(e.device_count_error)));
  DriverErrorExplanation why = explain_driver_error(e.device_count_error, e.driver, e.runtime);
  bad.cause = std::move(why.cause);
  // With no driver at all, the facts gathered here (module loaded? container?) say more than the table.
  bad.fix = e.device_count_error == cudaErrorInsufficientDriver && !e.driver.known() ? no_driver_fix(f) : why.fix;
  bad.field_causes = std::move(why.field_causes);
  out.add(std::move(bad));
}

void device_nodes(const HardwareFacts& f, CheckOutput& out) {
  const bool usable = f.env.usable();
  if (!f.inaccessible_nodes.empty()) {
    out.add(out.finding(usable ? Outcome::Warn : Outcome::Fail,
                    "this user cannot open " + first_few(f.inaccessible_nodes, 4),
                    "the driver is reached through these device files; without read-write access CUDA finds no GPU",
                    "add the user to the group that owns them (often 'video' or 'render'), or fix the container's "
                    "device cgroup (--gpus / --device)")
                .with_details(f.device_nodes));
    return;
  }
  if (f.device_nodes.empty()) {
    out.add(out.finding(usable ? Outcome::Pass : Outcome::Fail,
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
        out.finding(usable ? Outcome::Warn : Outcome::Fail,
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
  out.add(out.finding(Outcome::Pass,
                  "device nodes present and accessible: " + first_few(f.device_nodes, 6))
              .with_details(f.device_nodes));
}

void kernel_module(const HardwareFacts& f, CheckOutput& out) {
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
    out.add(out.finding(usable ? Outcome::Warn : Outcome::Fail,
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
    out.add(out.finding(Outcome::Warn,
                    "cannot read a version from /proc/driver/nvidia/version", "its first line has no version number",
                    "compare nvidia-smi's driver version with the installed packages")
                .with_details({first_line}));
    return;
  }
  if (userspace.empty()) {
    out.add(out.finding(usable ? Outcome::Pass : Outcome::Warn,
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
        out.finding(usable ? Outcome::Warn : Outcome::Fail,
                "kernel module " + *module + " but user-space driver " + userspace + " (" + source + ")",
                "the driver packages were upgraded without a reboot: the old kernel module is still loaded "
                "(nvidia-smi says 'Driver/library version mismatch', CUDA returns 803)",
                "reboot, or unload and reload the nvidia modules (rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia; "
                "modprobe nvidia); hold the driver packages (apt-mark hold) against unattended upgrades",
                {KernelModuleMismatch})
            .with_details({first_line}));
    return;
  }
  out.add(out.finding(Outcome::Pass,
                  "kernel module " + *module + " = user-space driver " + userspace + " (" + source + ")")
              .with_details({first_line}));
}

void driver_cuda_version(const HardwareFacts& f, CheckOutput& out) {
  const auto& e = f.env;
  if (!e.driver.known()) {
    out.add(out.finding(Outcome::Skip,
                    "no driver: its CUDA version is unknown (this runtime is CUDA " + e.runtime.str() + ")"));
    return;
  }
  const int branch = arch::minimum_driver_branch_for_runtime(e.runtime.major());
  if (e.driver.major() < e.runtime.major()) {
    out.add(
        out.finding(Outcome::Fail,
                "the driver supports CUDA " + e.driver.str() + ", older than this runtime's CUDA " + e.runtime.str(),
                "a CUDA " + std::to_string(e.runtime.major()) + ".x runtime needs driver r" + std::to_string(branch) +
                    " or newer (cudaErrorInsufficientDriver, 35)",
                "install driver r" + std::to_string(branch) +
                    " or newer; on datacenter GPUs the cuda-compat forward-compatibility package is the alternative",
                {DriverOlderThanRuntime}));
  } else if (e.driver.value < e.runtime.value) {
    const auto isa = arch::ptx_isa_of_cuda(e.driver);
    out.add(out.finding(Outcome::Warn,
                    "the driver supports CUDA " + e.driver.str() + ", older than this runtime's CUDA " +
                        e.runtime.str() + " (minor-version compatibility)",
                    "it runs, but this driver JIT-compiles PTX only up to ISA " +
                        (isa ? isa->str() : std::string("?")) +
                        " (newer PTX fails with 222) and newer APIs return cudaErrorCallRequiresNewerDriver (36)",
                    "update the driver to the branch of CUDA " + e.runtime.str() + " or newer", {PtxNewerThanDriver}));
  } else {
    out.add(out.finding(Outcome::Pass,
                    "driver CUDA " + e.driver.str() + " >= runtime CUDA " + e.runtime.str()));
  }
}

void nvml(const HardwareFacts& f, CheckOutput& out) {
  const bool usable = f.env.usable();
  if (f.nvml_available) {
    std::string s = "NVML: driver " + (f.nvml && !f.nvml->driver_version.empty() ? f.nvml->driver_version : "?");
    if (f.nvml && f.nvml->cuda_driver_version > 0)
      s += " (CUDA " + arch::CudaVersion{f.nvml->cuda_driver_version}.str() + ")";
    if (f.nvml) s += fmt::format(", {} GPU(s) on the system", f.nvml->uuids.size());
    Finding ok = out.finding(Outcome::Pass, s);
    if (f.nvml) {
      for (size_t i = 0; i < f.nvml->uuids.size(); ++i)
        ok.details.push_back(fmt::format("NVML GPU {}: {}", i, f.nvml->uuids[i]));
    }
    out.add(std::move(ok));
    return;
  }
  if (f.nvml_init_status == 18) {  // NVML_ERROR_LIB_RM_VERSION_MISMATCH
    out.add(out.finding(usable ? Outcome::Warn : Outcome::Fail, "NVML: " + f.nvml_why,
                    "NVML's library and the loaded kernel module are different driver versions",
                    "reboot, or reload the nvidia kernel modules; remove a stale libnvidia-ml from LD_LIBRARY_PATH",
                    {KernelModuleMismatch}));
    return;
  }
  if (usable && f.nvml_init_status == -1) {
    out.add(
        out.finding(Outcome::Warn, "NVML unavailable: " + f.nvml_why,
                "without NVML the MIG, persistence, ECC and clock-event checks are skipped",
                "install the driver's libnvidia-ml.so.1; in a container add 'utility' to NVIDIA_DRIVER_CAPABILITIES"));
    return;
  }
  out.add(out.finding(Outcome::Skip,
                  "NVML unavailable (" + f.nvml_why + "): MIG, persistence, ECC and clock-event checks skipped"));
}


void visible_devices(const HardwareFacts& f, CheckOutput& out) {
  const auto it = f.env_vars.find("CUDA_VISIBLE_DEVICES");
  const std::optional<std::string> value = it == f.env_vars.end() ? std::nullopt : std::optional(it->second);
  const VisibleDevices v = analyze_visible_devices(value, nvml_gpu_count(f), nvml_uuids(f));
  const bool usable = f.env.usable();
  if (!v.set) {
    out.add(out.finding(Outcome::Pass,
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
      out.add(out.finding(Outcome::Warn,
                      shown + " should hide every GPU, yet CUDA sees " + std::to_string(f.env.devices.size()),
                      cause + " (this driver reads the list differently from the rule the doctor knows)", kVisibleFix,
                      causes));
    } else {
      out.add(out.finding(Outcome::Fail, shown + " hides every GPU",
                      cause + "; nothing is left, so CUDA reports no device (cudaErrorNoDevice, 100)", kVisibleFix,
                      causes));
    }
  } else if (!v.problems.empty()) {
    out.add(out.finding(Outcome::Warn,
                    shown + " resolves to " + join(v.selected, ",") + ", which is probably not what was meant",
                    join(v.problems, "; "), kVisibleFix, causes));
  } else if (!usable) {
    out.add(out.finding(Outcome::Warn,
                    shown + " selects " + join(v.selected, ",") +
                        ", which cannot be checked against the GPUs here (no usable driver)",
                    "if an entry names a GPU that does not exist, CUDA hides every GPU (cudaErrorNoDevice, 100): a "
                    "set CUDA_VISIBLE_DEVICES is a common cause of 'no device'",
                    "check the value against nvidia-smi -L on this machine, or unset it", causes));
  } else {
    Finding ok = out.finding(Outcome::Pass, shown + " selects " + join(v.selected, ","));
    for (const auto& d : f.env.devices)
      ok.details.push_back(fmt::format("CUDA device {} = {} ({})", d.index, d.uuid, d.name));
    out.add(std::move(ok));
  }
}

void device_order(const HardwareFacts& f, CheckOutput& out) {
  const auto order = f.env_vars.find("CUDA_DEVICE_ORDER");
  const int gpus = std::max(nvml_gpu_count(f), static_cast<int>(f.env.devices.size()));
  if (order != f.env_vars.end() && order->second != "FASTEST_FIRST" && order->second != "PCI_BUS_ID") {
    out.add(out.finding(Outcome::Warn,
                    "CUDA_DEVICE_ORDER='" + order->second + "' is not a value CUDA knows",
                    "CUDA reads FASTEST_FIRST (the default) or PCI_BUS_ID",
                    "set CUDA_DEVICE_ORDER=PCI_BUS_ID, or unset it", {VisibleDevicesMistake}));
  } else if (order == f.env_vars.end() && gpus > 1) {
    out.add(out.finding(Outcome::Warn,
                    fmt::format("CUDA_DEVICE_ORDER is not set on a machine with {} GPUs", gpus),
                    "CUDA numbers GPUs fastest first, nvidia-smi and NVML by PCI bus: CUDA's device N may not be "
                    "nvidia-smi's GPU N, so indices in CUDA_VISIBLE_DEVICES or --device can pick the wrong GPU",
                    "export CUDA_DEVICE_ORDER=PCI_BUS_ID, or select GPUs by UUID", {VisibleDevicesMistake}));
  } else {
    out.add(out.finding(Outcome::Pass,
                    order == f.env_vars.end() ? std::string("CUDA_DEVICE_ORDER is not set (FASTEST_FIRST)") +
                                                    (gpus > 1 ? "" : "; with one GPU the order does not matter")
                                              : "CUDA_DEVICE_ORDER=" + order->second));
  }
}

void container(const HardwareFacts& f, CheckOutput& out) {
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
    out.add(out.finding(Outcome::Pass, where).with_details(details));
    return;
  }
  const FieldCauses no_driver{NoDriverInContainer};
  if (caps && *caps != "all" && caps->find("compute") == std::string::npos) {
    out.add(out.finding(Outcome::Fail,
                    "NVIDIA_DRIVER_CAPABILITIES='" + *caps + "' lacks 'compute'",
                    "the NVIDIA container runtime mounts libcuda.so.1 only for the 'compute' capability",
                    "start the container with NVIDIA_DRIVER_CAPABILITIES=compute,utility (or all)", no_driver)
                .with_details(details));
  } else if (visible && (*visible == "void" || *visible == "none" || visible->empty())) {
    out.add(out.finding(Outcome::Fail,
                    "NVIDIA_VISIBLE_DEVICES='" + *visible + "' gives this container no GPU",
                    "the NVIDIA container runtime injects only the GPUs this variable lists",
                    "start the container with --gpus all (or NVIDIA_VISIBLE_DEVICES=all)", no_driver)
                .with_details(details));
  } else if (f.device_nodes.empty()) {
    out.add(out.finding(Outcome::Fail,
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
        out.finding(Outcome::Pass, where + " with GPU device nodes").with_details(details));
  }
}

constexpr Check<HardwareFacts> kHardwareChecks[] = {
    {"device-count", device_count},
    {"device-nodes", device_nodes},
    {"kernel-module", kernel_module},
    {"driver-cuda-version", driver_cuda_version},
    {"nvml", nvml},
    {"gpus", each_gpu},  // gpu_checks(): compute-mode, gpu-state, mig, persistence, clock-events, ecc per device
    {"visible-devices", visible_devices},
    {"device-order", device_order},
    {"container", container},
};

}  // namespace

std::span<const Check<HardwareFacts>> hardware_checks() { return kHardwareChecks; }

void check_hardware(const HardwareFacts& f, Checklist& out) { run_checks(hardware_checks(), Layer::Hardware, f, out); }

}  // namespace archbench::doctor
