// The compatibility engine: which image of a kernel a device would run, or why none
// (docs/reference/compat.md, "Summary: which image a kernel gets", "PTX ISA, toolkit and driver",
// "Driver and runtime versions"). The arch-list grammar, the image probe's verdicts, the inspector and
// the doctor all ask this one module.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/arch/cuda_versions.hpp"
#include "harness/arch/image_outcome.hpp"
#include "harness/arch/target.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench::arch {

// Tegra parts have no binary compatibility with other minors or with desktop parts.
[[nodiscard]] bool is_tegra(int cc_number);
// Thor's two compute capabilities: 10.1 (sm_101) under a CUDA 12 driver, 11.0 (sm_110) from CUDA 13,
// whose release notes renumbered it; each loads only its own SASS.
inline constexpr ComputeCapability kThorBeforeCuda13{10, 1};
inline constexpr ComputeCapability kThorFromCuda13{11, 0};
// Thor's compute capability under a driver of this CUDA version (unknown: CUDA 13's).
[[nodiscard]] inline ComputeCapability thor_cc(CudaVersion driver) {
  return driver.known() && driver.major() < 13 ? kThorBeforeCuda13 : kThorFromCuda13;
}
// Members of the family of an `f` target (versioned data, Programming Guide 13.x Table 28).
[[nodiscard]] std::vector<int> family_members(int family_arch);
[[nodiscard]] bool in_family(int family_arch, int device_arch);

// Whether a SASS image executes on a device of this compute capability.
[[nodiscard]] bool sass_runs_on(const CodeTarget& sass, ComputeCapability device);
// Whether PTX of this target can be JIT-compiled for the device (arch rules only, not ISA).
[[nodiscard]] bool ptx_can_target(const CodeTarget& ptx, ComputeCapability device);
// Whether the suffix alone keeps this SASS target off the device: its plain twin would run there (sm_100a
// on 10.3, sm_120a on 12.1). An `a` build failing on the rest of its family, not a missing architecture.
[[nodiscard]] bool suffix_excludes(const CodeTarget& sass, ComputeCapability device);

// What is known of the device and the process environment.
struct DeviceFacts {
  ComputeCapability cc;
  CudaVersion driver;          // cudaDriverGetVersion; unknown = PTX ISA is not judged
  bool force_ptx_jit = false;  // CUDA_FORCE_PTX_JIT: embedded SASS is ignored
  bool jit_disabled = false;   // CUDA_DISABLE_PTX_JIT: PTX cannot be used
};

// A kernel compiled for one arch-specific SASS target instead of the build's whole list (wgmma
// and setmaxnreg exist only in sm_90a code). It is built when the list has that arch's SASS, plain
// or `a`, as vLLM and FlashAttention-3 build their Hopper kernels for a list's 9.0. It runs only on
// exactly that compute capability: any other device is `unsupported`, not `missing`, since no
// arch list would give it an image there (a real stack runs a portable path instead).
struct SingleTarget {
  CodeTarget target;  // sm_90a
  std::string why;    // "wgmma code is compiled only for 9.0a"
};

// The images such a kernel gets from a build: `only` when the list has SASS for its arch (plain or
// with its suffix), else none.
[[nodiscard]] std::vector<CodeTarget> single_target_images(const std::vector<CodeTarget>& build,
                                                           const CodeTarget& only);

// The images one kernel has.
struct ImageSet {
  std::vector<CodeTarget> targets;
  // The kernel's real code needs these features; images built from an older virtual arch are
  // stubs (the kernel compiles to a placeholder there), so they never count.
  ComputeCapability needs{0, 0};
  std::optional<SingleTarget> only = std::nullopt;  // set for a single-target kernel
};

// The CUDA error the runtime gives for a status (209, 222, 223), 0 when the kernel loads.
[[nodiscard]] int expected_cuda_error(ImageOutcome s);

struct Verdict {
  ImageOutcome status = ImageOutcome::Missing;
  std::optional<CodeTarget> image;  // the image the driver picks, when one does
  std::string cause;                // why it is not plain SASS, in words
  std::string fix;                  // what would make it SASS

  // "sass sm_90", "ptx-jit from compute_80", "missing", ...
  [[nodiscard]] std::string label() const;
  [[nodiscard]] bool loads() const { return status == ImageOutcome::Sass || status == ImageOutcome::PtxJit; }
};

[[nodiscard]] Verdict predict(const ImageSet& images, const DeviceFacts& device);

// The cause of an "unsupported" verdict: "unsupported on this device (needs 8.9 for FP8 tensor
// cores, device is 8.0)"; `why` (what the capability brings) may be empty.
[[nodiscard]] std::string unsupported_cause(ComputeCapability needs, std::string_view why, ComputeCapability device);

// What cudaFuncGetAttributes said about a kernel on the live device.
struct RuntimeProbe {
  int error = 0;           // cudaError_t as an int; 0 = loaded
  std::string error_name;  // "cudaErrorNoKernelImageForDevice"
  int binary_version = 0;  // SASS arch the driver loaded (90)
  int ptx_version = 0;     // virtual arch the code came from (80 for compute_80)
};

struct ReconciledVerdict {
  Verdict verdict;           // the prediction, confirmed; or the runtime's answer when they differ
  bool agrees = true;        // runtime and static prediction agree
  std::string disagreement;  // when not: both sides in words
};

// Confirms a prediction with the runtime's answer for the same kernel on the same device.
[[nodiscard]] ReconciledVerdict reconcile(const Verdict& predicted, const RuntimeProbe& probe, const ImageSet& images);

}  // namespace archbench::arch
