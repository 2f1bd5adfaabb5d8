#include "harness/run/image_probe.hpp"

#include <string>
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

#include "harness/binary/binary_file.hpp"
#include "harness/vendor/cublas_check.hpp"
#include "harness/vendor/cudnn_check.hpp"

namespace archbench {
namespace {

arch::RuntimeProbe probe_kernel(const void* host_stub) {
  cudaFuncAttributes attr{};
  const cudaError_t e = cudaFuncGetAttributes(&attr, host_stub);
  arch::RuntimeProbe p;
  if (e != cudaSuccess) {
    cudaGetLastError();  // 209/222/223 are not sticky; clear them so the next call is clean
    p.error = static_cast<int>(e);
    p.error_name = cudaGetErrorName(e);
    return p;
  }
  p.binary_version = attr.binaryVersion;
  p.ptx_version = attr.ptxVersion;
  return p;
}

// This process's own kernels and their images, read once from its executable by the same
// reader `archbench inspect` uses: the static prediction comes from what is really there.
const std::map<std::string, std::vector<arch::CodeTarget>>& own_images() {
  static const auto images = [] {
    std::map<std::string, std::vector<arch::CodeTarget>> m;
    for (auto& k : binary::BinaryFile::open("/proc/self/exe").kernels()) m[k.mangled] = std::move(k.images);
    return m;
  }();
  return images;
}

// The kernel's images in the executable, with the virtual arch taken from the manifest (the
// fatbin entry does not record it); nullopt with the reason when it cannot be found.
std::optional<std::vector<arch::CodeTarget>> executable_images(const void* stub, const BuildManifest& build,
                                                               std::string& why) {
  const char* name = nullptr;
  if (cudaError_t e = cudaFuncGetName(&name, stub); e != cudaSuccess || name == nullptr) {
    cudaGetLastError();
    why = std::string("cudaFuncGetName failed: ") + cudaGetErrorName(e);
    return std::nullopt;
  }
  const auto& own = own_images();
  auto it = own.find(name);
  if (it == own.end()) {
    why = std::string("kernel ") + name + " not found in this executable's fatbin";
    return std::nullopt;
  }
  std::vector<arch::CodeTarget> images = it->second;
  for (auto& img : images) {
    for (const auto& t : build.targets) {
      if (t.kind == img.kind && t.arch == img.arch && t.suffix == img.suffix) img.virtual_arch = t.virtual_arch;
    }
  }
  return images;
}

std::set<std::tuple<arch::ImageKind, int, arch::Suffix>> target_set(const std::vector<arch::CodeTarget>& ts) {
  std::set<std::tuple<arch::ImageKind, int, arch::Suffix>> s;
  for (const auto& t : ts) s.insert({t.kind, t.arch, t.suffix});
  return s;
}

}  // namespace

ImageResult probe_image(const Operator& op, const BuildManifest& build, const arch::DeviceFacts& device) {
  ImageResult r;
  if (device.cc < op.spec().min_cc) {
    r.status = ImageOutcome::Unsupported;
    r.label = "unsupported";
    r.cause = arch::unsupported_cause(op.spec().min_cc, op.spec().min_cc_why, device.cc);
    return r;
  }
  if (op.kernels().empty()) {  // a library twin: the library's images are its own business
    r.status = ImageOutcome::Library;
    r.label = op.spec().impl == Impl::CuDNN ? cudnn_runtime_version() : cublas_runtime_version();
    return r;
  }
  int worst = -1;
  for (const auto& k : op.kernels()) {
    // A single-target kernel has the build's one target it is compiled for, not the whole list.
    const std::vector<arch::CodeTarget> expected =
        k.only ? arch::single_target_images(build.targets, k.only->target) : build.targets;
    if (k.host_stub == nullptr) {  // not in this build: nothing to ask the executable or the driver
      const arch::Verdict v = arch::predict(arch::ImageSet{expected, op.spec().min_cc, k.only}, device);
      r.kernels.push_back({k.name, v.label(), 0, 0, 0});
      if (severity(v.status) > worst) {
        worst = severity(v.status);
        r.status = v.status;
        r.label = v.label();
        r.cause = v.cause;
        r.fix = v.fix;
      }
      continue;
    }
    // Three sources must agree: the manifest (what configure resolved), the executable's own
    // fatbin (what the linker embedded), and the driver (what it loads on this device).
    std::string why;
    const auto from_exe = executable_images(k.host_stub, build, why);
    const arch::ImageSet images{from_exe ? *from_exe : expected, op.spec().min_cc, k.only};
    const arch::Verdict predicted = arch::predict(images, device);
    const arch::RuntimeProbe probe = probe_kernel(k.host_stub);
    arch::ReconciledVerdict v = arch::reconcile(predicted, probe, images);
    if (!from_exe && probe.error != 0 && !build.kernel_arch_overrides.empty()) {
      // The kernel's own images are unknown (cudaFuncGetName fails for a kernel without an image
      // here) and the build's list does not apply to an overridden source: the driver decides.
      v.agrees = true;
      v.disagreement.clear();
      v.verdict.status = probe.error == 222   ? ImageOutcome::NeedsNewerDriver
                         : probe.error == 223 ? ImageOutcome::JitDisabled
                                              : ImageOutcome::Missing;
      v.verdict.image.reset();
      v.verdict.cause = "the driver finds no usable image (" + probe.error_name + ", " + std::to_string(probe.error) +
                        "): this build compiled some kernel sources for another arch list (per-file override " +
                        build.kernel_arch_overrides + ")";
      v.verdict.fix = "build without ARCHBENCH_KERNEL_ARCH_OVERRIDES (a diagnosis option), or add " +
                      device.cc.str() + " to the override's list";
      r.note += (r.note.empty() ? "" : "; ") + k.name + ": judged by the driver alone (" + why + ")";
    } else if (!from_exe) {
      r.note += (r.note.empty() ? "" : "; ") + k.name + ": predicted from the build manifest only (" + why + ")";
    } else if (target_set(*from_exe) != target_set(expected) && !build.kernel_arch_overrides.empty()) {
      r.note += (r.note.empty() ? "" : "; ") + k.name + ": built for " + arch::join_names(*from_exe) +
                " by the per-file override " + build.kernel_arch_overrides;
    } else if (target_set(*from_exe) != target_set(expected)) {
      v.agrees = false;
      v.disagreement = "the executable holds " + arch::join_names(*from_exe) + " but the build manifest says " +
                       arch::join_names(expected);
    }
    r.kernels.push_back({k.name, v.verdict.label(), probe.error, probe.binary_version, probe.ptx_version});
    if (!v.agrees) {
      r.agrees = false;
      r.disagreement += (r.disagreement.empty() ? "" : "; ") + k.name + ": " + v.disagreement;
    }
    if (severity(v.verdict.status) > worst) {
      worst = severity(v.verdict.status);
      r.status = v.verdict.status;
      r.label = v.verdict.label();
      r.cause = v.verdict.cause;
      r.fix = v.verdict.fix;
    }
  }
  return r;
}

}  // namespace archbench
