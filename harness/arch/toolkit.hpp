// What the configured nvcc can build: its version and the targets it accepts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/arch/cuda_versions.hpp"
#include "harness/arch/target.hpp"

namespace archbench::arch {

struct Toolkit {
  CudaVersion version;     // nvcc's release, e.g. 13.0
  std::vector<int> archs;  // plain arch numbers from `nvcc --list-gpu-code`, ascending

  // `a` variants exist from 9.0, `f` variants from 10.0 (Programming Guide §5.1.2.3);
  // nvcc does not list them, so they are derived from the plain list.
  [[nodiscard]] bool supports(int arch, Suffix suffix) const;
  // "7.5 8.0 ... 9.0 9.0a 10.0 10.0a 10.0f ..." for error messages.
  [[nodiscard]] std::string describe() const;
  // The PTX ISA version this nvcc writes into its PTX.
  [[nodiscard]] PtxIsa ptx_isa() const;

  // Builds a Toolkit from nvcc's own answers: `nvcc --version` text and `nvcc --list-gpu-code`
  // text (one sm_XY per line). Throws std::invalid_argument when either cannot be read.
  static Toolkit from_nvcc_output(std::string_view version_text, std::string_view gpu_code_text);
};

}  // namespace archbench::arch
