// The composite family: chains of this project's own kernels as one operator (see
// composite_operators.cpp).
#pragma once

#include "harness/ops/registry.hpp"

namespace archbench::kernels::composite {

void register_operators(Registry& r);

}  // namespace archbench::kernels::composite
