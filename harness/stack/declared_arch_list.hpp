// The arch list a package says it was compiled for, read from the package itself: PyTorch keeps
// the targets it was built with as one string in libtorch_python.so ("sm_75 sm_80 ... sm_120
// compute_120"), the string torch.cuda.get_arch_list() splits. `scan` compares it with the
// images libtorch_cuda.so ships (docs/scan.md, "What a package declares").
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace archbench::stack {

// Whether a file of this name holds a declared arch list: libtorch_python.so on Linux,
// torch_python.dll on Windows.
[[nodiscard]] bool may_declare_arch_list(std::string_view file_name);

// The first NUL-terminated string in `bytes` (not the tail of a longer text) made only of two or more space-separated targets
// "sm_NN", "sm_NNa", "sm_NNf", "compute_NN" (NN two or three digits); empty when there is none.
// Returns the targets in the order written.
[[nodiscard]] std::vector<std::string> find_declared_arch_list(std::span<const std::byte> bytes);

// The same, for a file on disk (mapped, not read); empty when the file cannot be read.
[[nodiscard]] std::vector<std::string> read_declared_arch_list(const std::string& path);

}  // namespace archbench::stack
