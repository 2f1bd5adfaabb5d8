// The matmul family: own SIMT and tensor-core GEMMs and their cuBLAS twins.
#pragma once

#include "harness/ops/registry.hpp"

namespace archbench::kernels::matmul {

void register_operators(Registry& r);

}  // namespace archbench::kernels::matmul
