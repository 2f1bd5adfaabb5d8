// The arch-list grammars users already know, resolved into code targets (docs/reference/compat.md, "Arch-list
// grammars"):
//   TORCH_CUDA_ARCH_LIST: "7.5;8.0;8.6+PTX", "Ampere;Hopper", "9.0a", "8.6(8.0)", whitespace or ';'
//   CMake CUDA_ARCHITECTURES: "80-real;90-virtual;90", "all", "all-major", "native"
// This is the only implementation of those rules; CMake asks it (tools/archlist) for nvcc flags.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "harness/arch/target.hpp"
#include "harness/arch/toolkit.hpp"

namespace archbench::arch {

enum class Grammar { Torch, CMake };

struct ArchList {
  std::string given;                // the text as the user wrote it
  Grammar grammar = Grammar::Torch;
  std::vector<CodeTarget> targets;  // deduplicated; SASS first, then PTX, each by arch

  [[nodiscard]] std::vector<CodeTarget> sass() const;
  [[nodiscard]] std::vector<CodeTarget> ptx() const;
  // One `-gencode=arch=compute_XY,code=sm_XY` (or code=compute_XY) per target.
  [[nodiscard]] std::vector<std::string> nvcc_flags() const;
};

// Thrown for any list that cannot be built; what() says what was wrong, what this nvcc
// supports, and the names the grammar knows.
class ArchListError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Compute capabilities of the visible GPUs, for `native`. Throws ArchListError when none.
using NativeDetector = std::function<std::vector<ComputeCapability>()>;

[[nodiscard]] ArchList parse_arch_list(std::string_view text, const Toolkit& toolkit,
                                       const NativeDetector& detect_native = {});

// The list archbench builds when neither ARCHBENCH_ARCH_LIST nor TORCH_CUDA_ARCH_LIST is set:
// the SASS set of PyTorch 2.11's CUDA 13 wheels plus PTX of the newest, so a future GPU can JIT.
inline constexpr std::string_view kDefaultArchList = "7.5;8.0;8.6;9.0;10.0;12.0+PTX";

// The architecture names TORCH_CUDA_ARCH_LIST accepts, in the order they are matched.
[[nodiscard]] std::vector<std::string_view> torch_arch_names();

}  // namespace archbench::arch
