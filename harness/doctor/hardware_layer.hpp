// Layer 1, hardware & driver: the device count with the driver error decoded; /dev/nvidia* nodes;
// the kernel module's version against the user-space driver's; the driver's CUDA version against
// this runtime's; NVML's view (MIG, persistence, clock-event reasons, ECC, row remapping);
// CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER, judged statically so that a mistake shows even when
// no driver is there to apply it; container hints. gather_hardware_facts reads the system
// (hardware_facts.cpp, visible_devices.cpp); the checks only judge its facts (hardware_checks.cpp,
// gpu_checks.cpp).
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/device/environment.hpp"
#include "harness/device/nvml.hpp"
#include "harness/doctor/check_table.hpp"
#include "harness/doctor/checklist.hpp"
#include "harness/doctor/runtime_layer.hpp"

namespace archbench::doctor {

// "580.159.04" from /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX Open Kernel Module for
// x86_64  580.159.04  Release Build ..."); nullopt when there is no such line.
[[nodiscard]] std::optional<std::string> kernel_module_version(std::string_view proc_text);

// CUDA_VISIBLE_DEVICES as CUDA reads it (the rules PyTorch's _parse_visible_devices mirrors and
// tests): ordinals are read like strtoul ("1gpu2" is 1); a negative or non-numeric entry, or an
// ordinal at or above the GPU count, ends the list; an entry listed twice hides every GPU; a
// list starting with GPU- or MIG- is a list of UUID prefixes, ending at the first entry that is
// not one, that matches no GPU or more than one.
struct VisibleDevices {
  bool set = false;
  std::string value;
  std::vector<std::string> selected;  // what CUDA keeps, in order ("1", "GPU-9e8d35e3")
  std::vector<std::string> problems;  // each a sentence naming the entry
  bool hides_all = false;             // CUDA enumerates no device through it
};
// gpu_count < 0 and an empty uuid list mean unknown (no driver, no NVML): those checks are skipped.
[[nodiscard]] VisibleDevices analyze_visible_devices(const std::optional<std::string>& value, int gpu_count,
                                                     const std::vector<std::string>& uuids);

struct GpuFacts {          // index-aligned with Environment::devices
  std::string pci_bus_id;  // "0000:1b:00.0"
  int compute_mode = -1;   // cudaComputeMode (0 default, 2 prohibited, 3 exclusive process)
  std::optional<NvmlDeviceState> nvml;
};

struct HardwareFacts {
  Environment env;
  std::vector<GpuFacts> gpus;
  std::vector<std::string> device_nodes;        // /dev/nvidia* that exist
  std::vector<std::string> inaccessible_nodes;  // exist, but this user cannot open them read-write
  std::optional<std::string> kernel_module;     // /proc/driver/nvidia/version, when it exists
  std::string libcuda_path;                     // the libcuda mapped into this process, "" if none
  std::string libcuda_version;                  // from its file name: "580.159.04"
  std::vector<std::string> libcuda_elsewhere;   // libcuda copies reachable but not loaded (stubs included)
  bool nvml_available = false;
  int nvml_init_status = -1;
  std::string nvml_why;
  std::optional<NvmlSystem> nvml;
  std::map<std::string, std::string> env_vars;  // the process environment
  bool in_container = false;
  std::string container_evidence;  // "/.dockerenv exists"
};

[[nodiscard]] HardwareFacts gather_hardware_facts(const Environment& env, const RuntimeFacts& runtime);

// The checks, one per check id, in the order check_hardware runs them (and the report lists them).
// The layer's checks, in the report's order (hardware_checks.cpp): each a stable id ("device-count",
// "visible-devices", ...) and a pure judge of the facts.
[[nodiscard]] std::span<const Check<HardwareFacts>> hardware_checks();
// Every check of the table.
void check_hardware(const HardwareFacts& f, Checklist& out);

}  // namespace archbench::doctor
