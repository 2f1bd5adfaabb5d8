// The doctor's hardware & driver layer on plain data: the decoded device-count error and its fix
// (in a container or not), device nodes, kernel module vs user-space driver, driver vs runtime,
// NVML's GPU state, CUDA_VISIBLE_DEVICES judged statically, container hints (no GPU needed).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "harness/doctor/gpu_checks.hpp"
#include "harness/doctor/hardware_layer.hpp"
#include "suites/unit/harness/doctor/checklist_queries.hpp"

namespace archbench::doctor {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// This machine's situation: a container without GPUs, no driver at all.
HardwareFacts no_driver_in_container() {
  HardwareFacts f;
  f.env.runtime = {13000};
  f.env.device_count_error = cudaErrorInsufficientDriver;
  f.env.device_count_error_text = explain_device_count_error(cudaErrorInsufficientDriver, {}, {13000});
  f.in_container = true;
  f.container_evidence = "/.dockerenv exists";
  f.nvml_why = "libnvidia-ml.so.1 not found";
  return f;
}

// A working H200 host.
HardwareFacts h200() {
  HardwareFacts f;
  f.env.runtime = {13000};
  f.env.driver = {13000};
  DeviceInfo d;
  d.index = 0;
  d.name = "NVIDIA H200";
  d.cc = {9, 0};
  d.sm_count = 132;
  d.memory_bytes = size_t{150} << 30;
  d.uuid = "GPU-9e8d35e3-a134-0fdd-0e01-23811fdbd293";
  f.env.devices = {d};
  GpuFacts g;
  g.pci_bus_id = "0000:1B:00.0";
  g.compute_mode = 0;
  NvmlDeviceState s;
  s.mig_enabled = false;
  s.mig_pending = false;
  s.persistence = true;
  s.ecc_enabled = true;
  s.ecc_pending = true;
  s.ecc_uncorrected = 0;
  s.remap_pending = false;
  s.remap_failure = false;
  s.event_reasons = 0x1;  // idle
  g.nvml = s;
  f.gpus = {g};
  f.device_nodes = {"/dev/nvidia-caps", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia0", "/dev/nvidiactl"};
  f.kernel_module =
      "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  "
      "(dvs-builder@U16-I3-B03-4-3)  Thu Oct  9 2025\nGCC version:  gcc version 12.3.0\n";
  f.libcuda_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04";
  f.libcuda_version = "580.159.04";
  f.nvml_available = true;
  f.nvml_init_status = 0;
  f.nvml = NvmlSystem{"580.159.04", 13000, {d.uuid}};
  f.in_container = true;
  f.container_evidence = "/.dockerenv exists";
  f.env_vars = {{"NVIDIA_VISIBLE_DEVICES", "all"}, {"NVIDIA_DRIVER_CAPABILITIES", "compute,utility"}};
  return f;
}

TEST(DoctorKernelModule, ReadsTheVersionLine) {
  EXPECT_EQ(kernel_module_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  "
                                  "(dvs-builder@U16)  Thu Oct  9 2025\n"),
            "580.159.04");
  EXPECT_EQ(
      kernel_module_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 09:35:42 UTC 2024\n"
                            "GCC version:  gcc version 12.2.0\n"),
      "550.90.07");
  EXPECT_EQ(
      kernel_module_version("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  575.51.03  Release Build\n"),
      "575.51.03");
  EXPECT_FALSE(kernel_module_version("GCC version:  gcc version 12.2.0\n"));
  EXPECT_FALSE(kernel_module_version(""));
}

// The cases PyTorch's test_cuda_nvml_based_avail.py uses to model CUDA's own parsing.
TEST(DoctorVisibleDevices, ReadsTheListAsCudaDoes) {
  auto sel = [](const char* v, int count = -1, std::vector<std::string> uuids = {}) {
    return analyze_visible_devices(std::string(v), count, uuids);
  };
  EXPECT_FALSE(analyze_visible_devices(std::nullopt, -1, {}).set);
  EXPECT_EQ(sel("1gpu2,2ampere").selected, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(sel("0, 1, 2, -1, 3").selected, (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_TRUE(sel("0, 1, 2, 1").hides_all);
  EXPECT_TRUE(sel("0, 1, 2, 1").selected.empty());
  EXPECT_EQ(sel("2, +3, -0, 5").selected, (std::vector<std::string>{"2", "3", "0", "5"}));
  EXPECT_TRUE(sel("one,two,3,4").hides_all);
  EXPECT_EQ(sel("4,3,two,one").selected, (std::vector<std::string>{"4", "3"}));
  EXPECT_EQ(sel("GPU-9e8d35e3").selected, (std::vector<std::string>{"GPU-9e8d35e3"}));
  EXPECT_EQ(sel("GPU-123, 2").selected, (std::vector<std::string>{"GPU-123"}));
  EXPECT_EQ(sel("MIG-89c850dc").selected, (std::vector<std::string>{"MIG-89c850dc"}));
  EXPECT_EQ(sel("1, 5, 0", 2).selected, (std::vector<std::string>{"1"}));  // out of range ends the list
  EXPECT_TRUE(sel("").hides_all);
  EXPECT_TRUE(sel("  ").hides_all);

  const std::vector<std::string> uuids{
      "GPU-9942190a-aa31-4ff1-4aa9-c388d80f85f1", "GPU-9e8d35e3-a134-0fdd-0e01-23811fdbd293",
      "GPU-e429a63e-c61c-4795-b757-5132caeb8e70", "GPU-eee1dfbc-0a0f-6ad8-5ff6-dc942a8b9d98",
      "GPU-bbcd6503-5150-4e92-c266-97cc4390d04e", "GPU-472ea263-58d7-410d-cc82-f7fdece5bd28",
      "GPU-e56257c4-947f-6a5b-7ec9-0f45567ccf4e", "GPU-1c20e77d-1c1a-d9ed-fe37-18b8466a78ad"};
  EXPECT_EQ(sel("GPU-e4,GPU-9e8d35e3", 8, uuids).selected, (std::vector<std::string>{"GPU-e4", "GPU-9e8d35e3"}));
  EXPECT_TRUE(sel("GPU-123,GPU-9e8d35e3", 8, uuids).hides_all);  // the first matches nothing
  EXPECT_EQ(sel("GPU-9e8d35e3,GPU-e,GPU-47", 8, uuids).selected,
            (std::vector<std::string>{"GPU-9e8d35e3"}));                // ambiguous
  EXPECT_TRUE(sel("GPU-9e8d35e3,GPU-47,GPU-9e8", 8, uuids).hides_all);  // the same GPU twice

  // The problems are named.
  const auto dup = sel("1,1");
  ASSERT_EQ(dup.problems.size(), 1u);
  EXPECT_TRUE(contains(dup.problems[0], "listed twice")) << dup.problems[0];
  const auto word = sel("GPU0");
  ASSERT_FALSE(word.problems.empty());
  EXPECT_TRUE(contains(word.problems[0], "write the bare index")) << word.problems[0];
  const auto bad_uuid = sel("GPU-zz");
  EXPECT_TRUE(bad_uuid.hides_all);
  EXPECT_TRUE(contains(bad_uuid.problems[0], "not a UUID")) << bad_uuid.problems[0];
  const auto mixed = sel("0,GPU-9e8d35e3");
  EXPECT_TRUE(contains(mixed.problems[0], "cannot be mixed")) << mixed.problems[0];
  const auto range = sel("0-3");
  EXPECT_TRUE(contains(range.problems[0], "ranges are not supported")) << range.problems[0];
  const auto migs = sel("MIG-89c850dc,MIG-1c20e77d");
  EXPECT_FALSE(migs.hides_all);
  EXPECT_TRUE(contains(migs.problems.back(), "only one MIG instance")) << migs.problems.back();
}

TEST(DoctorHardware, NoDriverInAContainerSaysStartItWithGpus) {
  Checklist c;
  check_hardware(no_driver_in_container(), c);
  const Finding* count = only(c, "device-count");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->outcome, Outcome::Fail);
  EXPECT_TRUE(contains(count->summary, "cudaErrorInsufficientDriver (35)")) << count->summary;
  EXPECT_TRUE(contains(count->cause, "libcuda.so.1")) << count->cause;
  EXPECT_TRUE(contains(count->fix, "--gpus all")) << count->fix;
  EXPECT_EQ(only(c, "device-nodes")->outcome, Outcome::Fail);
  EXPECT_EQ(only(c, "kernel-module")->outcome, Outcome::Fail);
  EXPECT_EQ(only(c, "driver-cuda-version")->outcome, Outcome::Skip);
  EXPECT_EQ(only(c, "nvml")->outcome, Outcome::Skip);
  const Finding* container = only(c, "container");
  EXPECT_EQ(container->outcome, Outcome::Fail);
  EXPECT_TRUE(contains(container->summary, "started without GPUs")) << container->summary;
  EXPECT_EQ(diagnose(c), Diagnosis::NoDevice);
  for (const auto& f : c.findings()) {
    if (f.outcome == Outcome::Warn || f.outcome == Outcome::Fail) {
      EXPECT_FALSE(f.cause.empty()) << f.check;
      EXPECT_FALSE(f.fix.empty()) << f.check;
    }
  }
}

TEST(DoctorHardware, NoDriverOnAHostSaysInstallIt) {
  HardwareFacts f = no_driver_in_container();
  f.in_container = false;
  Checklist c = checked(check_hardware, f);
  EXPECT_TRUE(contains(only(c, "device-count")->fix, "install the NVIDIA driver (r580 or newer"))
      << only(c, "device-count")->fix;
  EXPECT_EQ(only(c, "container")->outcome, Outcome::Pass);

  // A container whose runtime hides libcuda.
  f = no_driver_in_container();
  f.env_vars = {{"NVIDIA_VISIBLE_DEVICES", "all"}, {"NVIDIA_DRIVER_CAPABILITIES", "utility"}};
  f.device_nodes = {"/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm"};
  Checklist caps = checked(check_hardware, f);
  EXPECT_TRUE(contains(only(caps, "container")->summary, "lacks 'compute'")) << only(caps, "container")->summary;
}

TEST(DoctorHardware, OldDriverNamesTheBranch) {
  HardwareFacts f = no_driver_in_container();
  f.env.driver = {12080};
  f.env.device_count_error_text = explain_device_count_error(cudaErrorInsufficientDriver, {12080}, {13000});
  Checklist c = checked(check_hardware, f);
  EXPECT_TRUE(contains(only(c, "device-count")->fix, "r580")) << only(c, "device-count")->fix;
  EXPECT_EQ(only(c, "device-count")->field_causes, (FieldCauses{FieldCause::DriverOlderThanRuntime}));
  const Finding* v = only(c, "driver-cuda-version");
  EXPECT_EQ(v->outcome, Outcome::Fail);
  EXPECT_TRUE(contains(v->fix, "cuda-compat")) << v->fix;
}

TEST(DoctorHardware, HealthyH200) {
  Checklist c;
  check_hardware(h200(), c);
  EXPECT_EQ(c.count(Outcome::Fail), 0u);
  const Finding* mismatch_free = only(c, "kernel-module");
  EXPECT_EQ(mismatch_free->outcome, Outcome::Pass);
  EXPECT_TRUE(contains(mismatch_free->summary, "580.159.04 = user-space driver 580.159.04")) << mismatch_free->summary;
  EXPECT_EQ(only(c, "device-count")->outcome, Outcome::Pass);
  EXPECT_TRUE(contains(only(c, "device-count")->details.at(0), "PCI 0000:1B:00.0"));
  EXPECT_EQ(only(c, "persistence")->outcome, Outcome::Pass);
  EXPECT_EQ(only(c, "clock-events")->outcome, Outcome::Pass);
  EXPECT_EQ(only(c, "mig")->outcome, Outcome::Pass);
  EXPECT_EQ(only(c, "ecc")->outcome, Outcome::Pass);
  EXPECT_EQ(only(c, "visible-devices")->outcome, Outcome::Pass);
  EXPECT_EQ(only(c, "container")->outcome, Outcome::Pass);
  EXPECT_EQ(diagnose(c), Diagnosis::Healthy);
}

TEST(DoctorHardware, ModuleMismatchAfterAnUpgrade) {
  HardwareFacts f = h200();
  f.kernel_module = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 09:35:42 UTC 2024\n";
  f.libcuda_version = "550.107.02";
  Checklist c = checked(check_hardware, f);
  const Finding* m = only(c, "kernel-module");
  EXPECT_EQ(m->outcome, Outcome::Warn);  // CUDA still works here; without a device it is a FAIL
  EXPECT_TRUE(contains(m->summary, "kernel module 550.90.07 but user-space driver 550.107.02")) << m->summary;
  EXPECT_TRUE(contains(m->fix, "reboot")) << m->fix;
  EXPECT_EQ(m->field_causes, (FieldCauses{FieldCause::KernelModuleMismatch}));

  f.env.devices.clear();
  f.env.device_count_error = cudaErrorSystemDriverMismatch;
  Checklist dead = checked(check_hardware, f);
  EXPECT_EQ(only(dead, "kernel-module")->outcome, Outcome::Fail);
  EXPECT_TRUE(contains(only(dead, "device-count")->fix, "reboot")) << only(dead, "device-count")->fix;
}

TEST(DoctorHardware, GpuStateWarnings) {
  HardwareFacts f = h200();
  auto& s = *f.gpus[0].nvml;
  s.persistence = false;
  s.event_reasons = 0x8 | 0x40;  // hw slowdown, hw thermal
  s.ecc_uncorrected = 3;
  s.mig_pending = true;
  f.gpus[0].compute_mode = 3;  // exclusive process
  Checklist c = checked(check_hardware, f);
  EXPECT_EQ(only(c, "persistence")->outcome, Outcome::Warn);
  EXPECT_TRUE(contains(only(c, "persistence")->fix, "nvidia-smi -pm 1"));
  EXPECT_EQ(only(c, "clock-events")->outcome, Outcome::Warn);
  EXPECT_TRUE(contains(only(c, "clock-events")->summary, "hw-slowdown")) << only(c, "clock-events")->summary;
  EXPECT_EQ(only(c, "ecc")->outcome, Outcome::Warn);
  EXPECT_TRUE(contains(only(c, "ecc")->summary, "3 uncorrectable")) << only(c, "ecc")->summary;
  EXPECT_EQ(only(c, "mig")->outcome, Outcome::Warn);
  EXPECT_EQ(only(c, "compute-mode")->outcome, Outcome::Warn);
  EXPECT_EQ(diagnose(c), Diagnosis::Healthy);

  f.gpus[0].compute_mode = 2;  // prohibited: nothing can run
  Checklist prohibited = checked(check_hardware, f);
  EXPECT_EQ(only(prohibited, "compute-mode")->outcome, Outcome::Fail);
  EXPECT_EQ(diagnose(prohibited), Diagnosis::NoDevice);
}

TEST(DoctorHardware, VisibleDevicesFindings) {
  // Without a driver the value is still judged: a repeated index hides every GPU.
  HardwareFacts f = no_driver_in_container();
  f.env_vars["CUDA_VISIBLE_DEVICES"] = "1,1";
  Checklist dup = checked(check_hardware, f);
  const Finding* v = only(dup, "visible-devices");
  EXPECT_EQ(v->outcome, Outcome::Fail);
  EXPECT_TRUE(contains(v->cause, "listed twice")) << v->cause;
  EXPECT_TRUE(contains(v->fix, "list each GPU once")) << v->fix;

  // A well-formed index cannot be checked without a driver: a warning that says so.
  f.env_vars["CUDA_VISIBLE_DEVICES"] = "7";
  Checklist seven = checked(check_hardware, f);
  EXPECT_EQ(only(seven, "visible-devices")->outcome, Outcome::Warn);
  EXPECT_TRUE(contains(only(seven, "visible-devices")->summary, "cannot be checked"))
      << only(seven, "visible-devices")->summary;

  // With NVML's GPU count, an index past it hides every GPU.
  HardwareFacts h = h200();
  h.env.devices.clear();
  h.env.device_count_error = cudaErrorNoDevice;
  h.env_vars["CUDA_VISIBLE_DEVICES"] = "1";
  Checklist past = checked(check_hardware, h);
  EXPECT_EQ(only(past, "visible-devices")->outcome, Outcome::Fail);
  EXPECT_TRUE(contains(only(past, "visible-devices")->cause, "not below the 1 GPU(s)"))
      << only(past, "visible-devices")->cause;
  EXPECT_TRUE(contains(only(past, "device-count")->fix, "CUDA_VISIBLE_DEVICES"));

  // Two GPUs and no CUDA_DEVICE_ORDER: CUDA's numbering may not be nvidia-smi's.
  HardwareFacts two = h200();
  two.nvml->uuids.push_back("GPU-1c20e77d-1c1a-d9ed-fe37-18b8466a78ad");
  Checklist order = checked(check_hardware, two);
  EXPECT_EQ(only(order, "device-order")->outcome, Outcome::Warn);
  EXPECT_TRUE(contains(only(order, "device-order")->fix, "PCI_BUS_ID"));
  two.env_vars["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID";
  Checklist ordered = checked(check_hardware, two);
  EXPECT_EQ(only(ordered, "device-order")->outcome, Outcome::Pass);
}

// The check functions one by one, on fake facts: each adds only its own findings.

std::vector<std::string> ids(const Checklist& c) {
  std::vector<std::string> out;
  for (const auto& f : c.findings()) out.push_back(f.check);
  return out;
}

// The hardware layer's check `id` alone (its row of the table), on `f`.
void judge(std::string_view id, const HardwareFacts& f, Checklist& c) {
  run_check(hardware_checks(), Layer::Hardware, id, f, c);
}

// The per-GPU check `id` alone, on device `d` whose CUDA and NVML facts are `g`.
void judge_gpu(std::string_view id, const DeviceInfo& d, const GpuFacts& g, Checklist& c, bool nvml_available = true) {
  run_check(gpu_checks(), Layer::Hardware, id, GpuView{d, g, nvml_available}, c);
}

// One finding from one check, or an empty one (and a test failure) when there is not exactly one.
template <typename Check>
Finding one(Check check) {
  Checklist c;
  check(c);
  EXPECT_EQ(c.findings().size(), 1u) << ::testing::PrintToString(ids(c));
  return c.findings().empty() ? Finding{} : c.findings().front();
}

TEST(DoctorHardwareChecks, DeviceNodes) {
  HardwareFacts f = h200();
  Finding n = one([&](Checklist& c) { judge("device-nodes", f, c); });
  EXPECT_EQ(n.outcome, Outcome::Pass);
  EXPECT_TRUE(contains(n.summary, "device nodes present and accessible")) << n.summary;

  f.inaccessible_nodes = {"/dev/nvidia0"};
  n = one([&](Checklist& c) { judge("device-nodes", f, c); });
  EXPECT_EQ(n.outcome, Outcome::Warn);  // CUDA works here anyway
  EXPECT_TRUE(contains(n.summary, "this user cannot open /dev/nvidia0")) << n.summary;
  EXPECT_TRUE(contains(n.fix, "'video' or 'render'")) << n.fix;
  f.env.devices.clear();
  EXPECT_EQ(one([&](Checklist& c) { judge("device-nodes", f, c); }).outcome, Outcome::Fail);

  f = h200();
  f.device_nodes = {"/dev/nvidia0", "/dev/nvidiactl"};
  n = one([&](Checklist& c) { judge("device-nodes", f, c); });
  EXPECT_EQ(n.outcome, Outcome::Warn);
  EXPECT_EQ(n.summary, "missing /dev/nvidia-uvm");
  EXPECT_EQ(n.field_causes, (FieldCauses{FieldCause::NoDriverInContainer}));

  f.device_nodes.clear();  // WSL reaches the GPU without them
  n = one([&](Checklist& c) { judge("device-nodes", f, c); });
  EXPECT_EQ(n.outcome, Outcome::Pass);
  EXPECT_TRUE(contains(n.summary, "yet CUDA works")) << n.summary;
}

TEST(DoctorHardwareChecks, KernelModuleWithoutAVersionOrAUserSpaceDriverToCompare) {
  HardwareFacts f = h200();
  f.kernel_module = "garbage\nmore\n";
  Finding m = one([&](Checklist& c) { judge("kernel-module", f, c); });
  EXPECT_EQ(m.outcome, Outcome::Warn);
  EXPECT_EQ(m.summary, "cannot read a version from /proc/driver/nvidia/version");
  EXPECT_EQ(m.details, (std::vector<std::string>{"garbage"}));

  f = h200();
  f.libcuda_version = "1";  // a soname's version, not the driver's: NVML's answer is used
  m = one([&](Checklist& c) { judge("kernel-module", f, c); });
  EXPECT_EQ(m.outcome, Outcome::Pass);
  EXPECT_TRUE(contains(m.summary, "= user-space driver 580.159.04 (NVML)")) << m.summary;

  f.nvml.reset();
  m = one([&](Checklist& c) { judge("kernel-module", f, c); });
  EXPECT_EQ(m.outcome, Outcome::Pass);
  EXPECT_TRUE(contains(m.summary, "the user-space driver's version is unknown")) << m.summary;

  f = h200();
  f.kernel_module.reset();  // WSL, or a container without the host's /proc/driver
  m = one([&](Checklist& c) { judge("kernel-module", f, c); });
  EXPECT_EQ(m.outcome, Outcome::Warn);
  EXPECT_TRUE(m.field_causes.empty());
}

TEST(DoctorHardwareChecks, DriverCudaVersionOlderMinorIsAWarning) {
  HardwareFacts f = h200();
  f.env.runtime = {13010};
  Finding v = one([&](Checklist& c) { judge("driver-cuda-version", f, c); });
  EXPECT_EQ(v.outcome, Outcome::Warn);
  EXPECT_TRUE(contains(v.summary, "(minor-version compatibility)")) << v.summary;
  EXPECT_EQ(v.field_causes, (FieldCauses{FieldCause::PtxNewerThanDriver}));
  f.env.runtime = {13000};
  v = one([&](Checklist& c) { judge("driver-cuda-version", f, c); });
  EXPECT_EQ(v.outcome, Outcome::Pass);
  EXPECT_EQ(v.summary, "driver CUDA 13.0 >= runtime CUDA 13.0");
}

TEST(DoctorHardwareChecks, NvmlLoadedOrWhyNot) {
  HardwareFacts f = h200();
  Finding n = one([&](Checklist& c) { judge("nvml", f, c); });
  EXPECT_EQ(n.outcome, Outcome::Pass);
  EXPECT_EQ(n.summary, "NVML: driver 580.159.04 (CUDA 13.0), 1 GPU(s) on the system");
  EXPECT_EQ(n.details, (std::vector<std::string>{"NVML GPU 0: GPU-9e8d35e3-a134-0fdd-0e01-23811fdbd293"}));

  f.nvml_available = false;
  f.nvml_init_status = 18;  // NVML_ERROR_LIB_RM_VERSION_MISMATCH
  f.nvml_why = "driver/library version mismatch";
  n = one([&](Checklist& c) { judge("nvml", f, c); });
  EXPECT_EQ(n.outcome, Outcome::Warn);
  EXPECT_EQ(n.field_causes, (FieldCauses{FieldCause::KernelModuleMismatch}));

  f.nvml_init_status = -1;  // no libnvidia-ml
  n = one([&](Checklist& c) { judge("nvml", f, c); });
  EXPECT_EQ(n.outcome, Outcome::Warn);
  EXPECT_TRUE(contains(n.fix, "'utility' to NVIDIA_DRIVER_CAPABILITIES")) << n.fix;
  f.env.devices.clear();
  EXPECT_EQ(one([&](Checklist& c) { judge("nvml", f, c); }).outcome, Outcome::Skip);
}

TEST(DoctorHardwareChecks, GpuStateSkipsOnlyWhenNvmlLacksThisGpu) {
  const HardwareFacts f = h200();
  const DeviceInfo& d = f.env.devices[0];
  const GpuFacts unknown{"0000:1B:00.0", 0, std::nullopt};
  const Finding s = one([&](Checklist& c) { judge_gpu("gpu-state", d, unknown, c, true); });
  EXPECT_EQ(s.outcome, Outcome::Skip);
  EXPECT_EQ(s.summary, "device 0 (NVIDIA H200): NVML has no handle for GPU-9e8d35e3-a134-0fdd-0e01-23811fdbd293");
  Checklist no_nvml, known;
  judge_gpu("gpu-state", d, unknown, no_nvml, false);  // the nvml finding says why
  judge_gpu("gpu-state", d, f.gpus[0], known, true);
  EXPECT_TRUE(no_nvml.findings().empty());
  EXPECT_TRUE(known.findings().empty());
  // The NVML checks add nothing without NVML's state.
  Checklist rest;
  judge_gpu("mig", d, unknown, rest);
  judge_gpu("persistence", d, unknown, rest);
  judge_gpu("clock-events", d, unknown, rest);
  judge_gpu("ecc", d, unknown, rest);
  EXPECT_TRUE(rest.findings().empty());
}

TEST(DoctorHardwareChecks, MigOnAnInstanceOrAPendingChange) {
  HardwareFacts f = h200();
  DeviceInfo d = f.env.devices[0];
  d.uuid = "MIG-89c850dc-0c3a-5d1b-a1e6-2d1cd7b8b6e2";
  d.sm_count = 16;
  d.memory_bytes = size_t{18} << 30;
  GpuFacts g = f.gpus[0];
  g.nvml->mig_enabled = true;
  g.nvml->mig_pending = true;
  Finding m = one([&](Checklist& c) { judge_gpu("mig", d, g, c); });
  EXPECT_EQ(m.outcome, Outcome::Pass);
  EXPECT_EQ(m.summary,
            "device 0 (NVIDIA H200): MIG mode on; CUDA uses the MIG instance "
            "MIG-89c850dc-0c3a-5d1b-a1e6-2d1cd7b8b6e2 (16 SMs, 18.0 GiB: a slice of the GPU)");
  g.nvml->mig_pending = false;
  m = one([&](Checklist& c) { judge_gpu("mig", d, g, c); });
  EXPECT_EQ(m.outcome, Outcome::Warn);
  EXPECT_EQ(m.summary, "device 0 (NVIDIA H200): MIG mode is on but off is pending");
  EXPECT_EQ(m.field_causes, (FieldCauses{FieldCause::MigInstance}));
}

TEST(DoctorHardwareChecks, ClockEventsUnderThePowerCapAlone) {
  const HardwareFacts f = h200();
  GpuFacts g = f.gpus[0];
  g.nvml->event_reasons = 0x4;  // sw power cap
  const Finding e = one([&](Checklist& c) { judge_gpu("clock-events", f.env.devices[0], g, c); });
  EXPECT_EQ(e.outcome, Outcome::Warn);
  EXPECT_EQ(e.summary, "device 0 (NVIDIA H200): clocks are held down now: sw-power-cap");
  EXPECT_TRUE(contains(e.cause, "the power cap limits the clocks")) << e.cause;
}

TEST(DoctorHardwareChecks, EccPendingChangesAndRowRemapping) {
  const HardwareFacts f = h200();
  const DeviceInfo& d = f.env.devices[0];
  GpuFacts g = f.gpus[0];
  g.nvml->ecc_pending = false;  // on now, off after a reboot
  g.nvml->remap_pending = true;
  Finding e = one([&](Checklist& c) { judge_gpu("ecc", d, g, c); });
  EXPECT_EQ(e.outcome, Outcome::Warn);
  EXPECT_EQ(e.summary,
            "device 0 (NVIDIA H200): ECC mode change to off is pending until a reboot; a row remapping is pending");
  EXPECT_EQ(e.fix,
            "reboot (or reset the GPU) to apply the ECC mode; reset the GPU (nvidia-smi -r) to apply the remapping");

  g.nvml->remap_failure = true;  // outranks the pending remapping
  e = one([&](Checklist& c) { judge_gpu("ecc", d, g, c); });
  EXPECT_TRUE(contains(e.summary, "row remapping failed")) << e.summary;
  EXPECT_FALSE(contains(e.summary, "a row remapping is pending")) << e.summary;
  EXPECT_TRUE(contains(e.fix, "take it out of use")) << e.fix;

  g = f.gpus[0];
  g.nvml->ecc_enabled = false;
  g.nvml->ecc_pending = false;
  e = one([&](Checklist& c) { judge_gpu("ecc", d, g, c); });
  EXPECT_EQ(e.outcome, Outcome::Pass);
  EXPECT_EQ(e.summary, "device 0 (NVIDIA H200): ECC off");
}

TEST(DoctorHardwareChecks, PersistenceAndComputeModeSayNothingWhenUnknownOrDefault) {
  const HardwareFacts f = h200();
  GpuFacts g = f.gpus[0];
  g.nvml->persistence.reset();
  g.compute_mode = -1;
  Checklist c;
  judge_gpu("persistence", f.env.devices[0], g, c);
  judge_gpu("compute-mode", f.env.devices[0], g, c);
  judge_gpu("compute-mode", f.env.devices[0], f.gpus[0], c);  // Default
  EXPECT_TRUE(c.findings().empty());
}

TEST(DoctorHardwareChecks, DeviceOrderValues) {
  HardwareFacts f = h200();
  Finding o = one([&](Checklist& c) { judge("device-order", f, c); });
  EXPECT_EQ(o.outcome, Outcome::Pass);
  EXPECT_EQ(o.summary, "CUDA_DEVICE_ORDER is not set (FASTEST_FIRST); with one GPU the order does not matter");
  f.env_vars["CUDA_DEVICE_ORDER"] = "pci_bus_id";
  o = one([&](Checklist& c) { judge("device-order", f, c); });
  EXPECT_EQ(o.outcome, Outcome::Warn);
  EXPECT_EQ(o.summary, "CUDA_DEVICE_ORDER='pci_bus_id' is not a value CUDA knows");
  EXPECT_EQ(o.field_causes, (FieldCauses{FieldCause::VisibleDevicesMistake}));
}

TEST(DoctorHardwareChecks, ContainerWithoutGpusSaysWhy) {
  HardwareFacts f = no_driver_in_container();
  f.env_vars = {{"NVIDIA_VISIBLE_DEVICES", "void"}};
  Finding c = one([&](Checklist& out) { judge("container", f, out); });
  EXPECT_EQ(c.outcome, Outcome::Fail);
  EXPECT_EQ(c.summary, "NVIDIA_VISIBLE_DEVICES='void' gives this container no GPU");
  EXPECT_EQ(c.field_causes, (FieldCauses{FieldCause::NoDriverInContainer}));
  EXPECT_EQ(c.details,
            (std::vector<std::string>{"container: /.dockerenv exists", "NVIDIA_VISIBLE_DEVICES=void"}));

  f.env_vars = {{"NVIDIA_VISIBLE_DEVICES", "all"}};  // asked for, but not started by the NVIDIA runtime
  c = one([&](Checklist& out) { judge("container", f, out); });
  EXPECT_EQ(c.outcome, Outcome::Fail);
  EXPECT_TRUE(contains(c.summary, "is set, but no GPU was injected")) << c.summary;

  f.device_nodes = {"/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm"};
  c = one([&](Checklist& out) { judge("container", f, out); });
  EXPECT_EQ(c.outcome, Outcome::Pass);
  EXPECT_EQ(c.summary, "in a container (/.dockerenv exists) with GPU device nodes");
}

TEST(DoctorHardwareChecks, EachGpuInDeviceOrder) {
  HardwareFacts f = h200();
  DeviceInfo second = f.env.devices[0];
  second.index = 1;
  second.uuid = "GPU-1c20e77d-1c1a-d9ed-fe37-18b8466a78ad";
  f.env.devices.push_back(second);  // no GpuFacts for it: NVML has no handle
  f.gpus[0].compute_mode = 3;
  Checklist c;
  judge("gpus", f, c);
  EXPECT_EQ(ids(c), (std::vector<std::string>{"compute-mode", "mig", "persistence", "clock-events", "ecc",
                                              "gpu-state"}));
  EXPECT_TRUE(contains(c.findings().back().summary, "device 1 ")) << c.findings().back().summary;
}

TEST(DoctorHardwareChecks, TheLayerRunsEveryCheckInReportOrder) {
  Checklist c;
  check_hardware(h200(), c);
  EXPECT_EQ(ids(c), (std::vector<std::string>{"device-count", "device-nodes", "kernel-module", "driver-cuda-version",
                                              "nvml", "mig", "persistence", "clock-events", "ecc", "visible-devices",
                                              "device-order", "container"}));
}

}  // namespace
}  // namespace archbench::doctor
