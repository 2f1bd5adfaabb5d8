// Who implements an operator: archbench's own kernel, or a library twin. Its name is the "impl" of
// operator ids' listings and of the run JSON.
#pragma once

#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

enum class Impl { Own, CuBLAS, CuDNN };
inline constexpr auto kImpls = enum_names<Impl>({{Impl::Own, "own"}, {Impl::CuBLAS, "cublas"}, {Impl::CuDNN, "cudnn"}});
[[nodiscard]] constexpr std::string_view impl_name(Impl i) { return name_of(kImpls, i); }

}  // namespace archbench
