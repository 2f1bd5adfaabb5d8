// The conv family: own implicit-GEMM convolutions (tensor cores f16/bf16, SIMT f32) and their
// cuDNN twins in NHWC and NCHW (see conv_operators.cpp for the list and the conventions).
#pragma once

#include "harness/ops/registry.hpp"

namespace archbench::kernels::conv {

void register_operators(Registry& r);

}  // namespace archbench::kernels::conv
