// The elementwise family: SiLU, GELU (tanh), GEGLU, residual add, nearest 2x upsample.
#pragma once

#include "harness/ops/registry.hpp"

namespace archbench::kernels::elementwise {

void register_operators(Registry& r);

}  // namespace archbench::kernels::elementwise
