// Layer 3, the build: this build's declared targets and the kernels this executable really holds,
// the loaded cuBLAS/cuDNN libraries' kernels, and any --check FILE, each judged for every device
// present by the compatibility engine (SASS within its major, a/f variants, PTX JIT and its ISA
// against this driver, the JIT environment variables). The judgement functions take plain data
// (kernel image lists, device facts) and are tested without a GPU.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "harness/arch/compat.hpp"
#include "harness/binary/binary_file.hpp"
#include "harness/binary/device_coverage.hpp"
#include "harness/device/environment.hpp"
#include "harness/doctor/checklist.hpp"
#include "harness/manifest/build_manifest.hpp"

namespace archbench::doctor {

// How the kernels of one binary fare on one device: the tally inspect and scan use.
using KernelTally = binary::CoverageTally;
using binary::tally_kernels;

// What a binary is to this process: a missing kernel means something different in each.
enum class BinaryRole {
  OwnExecutable,       // archbench itself: every kernel must load
  DispatchingLibrary,  // cuBLAS / cuDNN: picks kernels per arch, so SASS for this arch is what matters
  CheckedFile,         // --check FILE: any kernel without an image is fatal if it is launched
};

// `what` names the binary ("libcublasLt.so.13"), `device` the device ("device 0 (NVIDIA H200, 9.0)").
[[nodiscard]] Finding judge_binary(const std::string& what, BinaryRole role, const KernelTally& tally,
                                   const arch::DeviceFacts& facts, const std::string& device);

// The build's declared targets (the manifest) on one device.
[[nodiscard]] Finding judge_build_targets(const BuildManifest& build, const arch::DeviceFacts& facts,
                                          const std::string& device);

struct BuildInputs {
  const BuildManifest* build = nullptr;
  const Environment* env = nullptr;  // devices and the JIT variables
  std::string own_executable = "/proc/self/exe";
  std::vector<std::string> libraries;    // loaded cuBLAS/cuDNN files (and cuDNN's sub-libraries)
  std::vector<std::string> check_files;  // --check
};

// Reads every binary once (the same reader as `archbench inspect`) and judges it per device.
void check_build(const BuildInputs& in, Checklist& out);

// The cuBLAS and cuDNN files to judge: the mapped ones plus cuDNN's sub-libraries beside libcudnn
// (cuDNN opens those only when a handle needs them).
[[nodiscard]] std::vector<std::string> library_files_to_judge(const std::vector<std::string>& mapped_paths);

}  // namespace archbench::doctor
