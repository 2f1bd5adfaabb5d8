// What this binary was built from and for; compiled in at configure time and carried by every
// report, so a result always says which arch list produced it.
#pragma once

#include <string>
#include <vector>

#include "harness/arch/target.hpp"

namespace archbench {

struct BuildManifest {
  std::string arch_list;         // as given
  std::string arch_list_source;  // ARCHBENCH_ARCH_LIST, TORCH_CUDA_ARCH_LIST or default
  std::string arch_grammar;      // torch or cmake
  std::vector<arch::CodeTarget> targets;  // resolved by harness/arch at configure time
  // ARCHBENCH_KERNEL_ARCH_OVERRIDES ("<glob>=<list>|..."): kernel sources built for another list
  // (diagnosis builds only); empty for a normal, uniform build.
  std::string kernel_arch_overrides;
  std::string nvcc_version;
  std::string ptx_isa;
  std::string cublas_header_version;
  std::string cudnn_header_version;  // "not found" when the build had no cuDNN
  std::string git_revision;
  std::string build_type;
  std::string archbench_version;

  [[nodiscard]] std::vector<arch::CodeTarget> sass() const;
  [[nodiscard]] std::vector<arch::CodeTarget> ptx() const;
};

[[nodiscard]] const BuildManifest& build_manifest();

// Multi-line human-readable form (archbench --version).
[[nodiscard]] std::string format_manifest(const BuildManifest& m);

}  // namespace archbench
