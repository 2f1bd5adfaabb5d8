// Kernel (entry function) names defined by one image (docs/reference/compat.md, "Fatbin and cubin layout")
// (private to harness/binary).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/binary/byte_view.hpp"

namespace archbench::binary::detail {

// .symtab symbols that are global or weak functions with the entry bit (st_other & 0x10) and are defined.
[[nodiscard]] std::vector<std::string> cubin_kernel_names(Bytes cubin, const ErrorSite& site);

// `[.visible|.weak] .entry NAME(` at the start of a line; text stops at the first NUL.
[[nodiscard]] std::vector<std::string> ptx_kernel_names(std::string_view ptx);

// abi::__cxa_demangle, or the name itself when it is not a mangled C++ name.
[[nodiscard]] std::string demangle(const std::string& mangled);

}  // namespace archbench::binary::detail
