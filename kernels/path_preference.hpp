// The order in which a framework would try archbench's own implementations of one problem: the
// Hopper kernel (wgmma, sm_90a: CC 9.0 only), else the portable tensor-core kernel (mma.sync, CC
// 8.0+), else the SIMT kernel, whose only dtype is f32. The one copy of that order; `archbench
// run` reports which path each device would take (harness/result/path_choice.hpp).
#pragma once

#include <vector>

#include "harness/result/path_choice.hpp"

namespace archbench::kernels {

[[nodiscard]] const std::vector<PathPreference>& path_preferences();

}  // namespace archbench::kernels
