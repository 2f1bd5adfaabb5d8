// The one target wgmma code (gemm_wgmma, flash_wgmma) is compiled for, and why: what the image probe
// expects of those kernels (harness/arch/compat.hpp, SingleTarget). Host C++20, not for .cu files.
#pragma once

#include "harness/arch/compat.hpp"

namespace archbench::kernels {

[[nodiscard]] arch::SingleTarget sm90a_target();

// What a launch of wgmma code does in a build without that target (the *_absent.cpp variants):
// std::runtime_error naming `fn`, the missing target and the fix.
[[noreturn]] void throw_without_sm90a(const char* fn);

}  // namespace archbench::kernels
