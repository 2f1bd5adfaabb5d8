// The one target the wgmma GEMM is compiled for, and why: what the image probe expects of its
// kernels (harness/arch/compat.hpp, SingleTarget). Host C++20, not for .cu files.
#pragma once

#include "harness/arch/compat.hpp"

namespace archbench::kernels::matmul {

[[nodiscard]] arch::SingleTarget gemm_wgmma_target();

}  // namespace archbench::kernels::matmul
