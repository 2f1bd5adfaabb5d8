// The norm family: LayerNorm (affine and Flux's non-affine), RMSNorm(128), GroupNorm(32) +/- SiLU.
#pragma once

#include "harness/ops/registry.hpp"

namespace archbench::kernels::norm {

void register_operators(Registry& r);

}  // namespace archbench::kernels::norm
