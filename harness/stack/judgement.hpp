// Per package and per device: does it run, and if not, why and what fixes it. The per-file rule
// is binary::judge (one rule with inspect and the doctor); on top, what only a stack shows: the
// CUDA runtime a package links against the device's driver, what a package declares against what
// it ships, and advice that fits the package (a PyTorch build variant, an extension's
// TORCH_CUDA_ARCH_LIST, a vendor library's release, a driver branch).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/arch/products.hpp"
#include "harness/binary/device_coverage.hpp"
#include "harness/stack/inventory.hpp"

namespace archbench::stack {

// The CUDA major a binary needs a driver for, however it is linked: the libraries it links
// (libcudart.so.13, libcublas.so.12, cudart64_12.dll; its own name when it is one of them), and
// the toolkit its cubins record (toolkit_note.hpp) for a runtime linked statically or not at all.
// One rule for ELF and PE files, used by inspect and scan.
struct RuntimeNeed {
  int cuda_major = 0;
  std::string library;  // what says so: "libcudart.so.13", "toolkit notes: CUDA 13.0"
};
[[nodiscard]] std::optional<RuntimeNeed> runtime_need(const std::vector<std::string>& linked_names,
                                                      std::optional<arch::CudaVersion> toolkit = std::nullopt);

// What kind of package a fix is for. AotiPackage: an AOTInductor package (.pt2), whose kernels were
// compiled on one GPU for its architecture.
enum class PackageRole { PyTorch, VendorLibrary, Extension, AotiPackage };
[[nodiscard]] PackageRole role_of(const Package& p, const Inventory& inv);

// Where a package's declared arch list (torch.cuda.get_arch_list()) names a target that one of
// its whole-list binaries has no image for: one line per such binary; empty when every listed
// target is shipped or nothing is declared. Extra targets are not a mismatch.
[[nodiscard]] std::vector<std::string> declared_arch_list_mismatches(const Package& p, const Inventory& inv);

struct AdviceContext {
  int nvcc_major = 0;  // the installed toolkit's CUDA major (0: unknown): never advise what it cannot build
  // Loader override variables (variant_family.hpp) as set for the environment scanned: empty for
  // a wheel or an image, which the scanning process's environment does not describe.
  std::map<std::string, std::string> loader_overrides = {};
};

// What to do when `name` has no (native) image for a device, by what it is.
[[nodiscard]] std::string arch_fix(PackageRole role, const std::string& name, arch::ComputeCapability cc,
                                   const AdviceContext& ctx);

struct FileJudgement {
  size_t file = 0;  // index into Inventory::files
  ImageOutcome coverage = ImageOutcome::NoDeviceCode;
  binary::CoverageTally tally;
  std::optional<RuntimeNeed> runtime;
  bool runtime_too_new = false;  // the runtime it links needs a newer driver than the device's
  // False for a CUDA variant that does not load here (variant_family.hpp), and for a file of only
  // arch-specific code for other devices beside files with code for this one: judged and listed,
  // but not part of the package's verdict.
  bool counted = true;
};

struct PackageJudgement {
  size_t package = 0;  // index into Inventory::packages
  ImageOutcome coverage = ImageOutcome::NoDeviceCode;  // the worst of its files
  std::string summary;  // "runs natively (sass sm_90)", "no image for 12.0 in 444 of 444 containers"
  std::string cause;    // empty when it runs
  std::string fix;
  std::vector<std::string> notes;  // declared vs shipped; arch-specific code for other devices
  std::vector<FileJudgement> files;
};

struct DeviceJudgement {
  arch::DeviceSpec device;
  std::vector<PackageJudgement> packages;  // worst first
};

[[nodiscard]] std::vector<DeviceJudgement> judge_inventory(const Inventory& inv, const std::vector<arch::DeviceSpec>& devices,
                                                           const AdviceContext& ctx);

// Packages of one environment built for different CUDA runtime majors (onnxruntime-gpu for CUDA 12 beside
// a torch for CUDA 13): one process loads both only when both runtimes are installed, and a package whose
// runtime is missing falls back or fails (ORT falls back to the CPU, ragflow#14565). One line per major
// with the packages that pin it; empty when all agree. Files of variant families are left out (each
// variant pins its own major by design).
[[nodiscard]] std::vector<std::string> mixed_cuda_runtimes(const Inventory& inv);

}  // namespace archbench::stack
