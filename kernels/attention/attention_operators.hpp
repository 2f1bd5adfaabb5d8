// The attention family: scaled-dot-product attention forward (own tensor-core flash kernel, its
// Hopper wgmma variant, own fp32 SIMT kernel, the cuBLAS math path, cuDNN's fused SDPA); see
// attention_operators.cpp.
#pragma once

#include <vector>

#include "harness/ops/registry.hpp"
#include "kernels/attention/attention_dims.hpp"
#include "kernels/attention/attention_problem.hpp"

namespace archbench::kernels::attention {

struct AttentionShape {
  AttentionDims dims;
  const char* model;
  bool own_f32;  // the own fp32 SIMT kernel runs this shape too
};

// The benchmark shapes (docs/reference/workload.md, "The operator set", attention row, plus SD1.5's d = 80
// and 160 levels).
[[nodiscard]] const std::vector<AttentionShape>& attention_shapes();

void register_operators(Registry& r);

// The Hopper kernel's launch factory (f16, bf16, e4m3, e5m2), as its operators use it: for tests at
// shapes the registry does not have (tails of a key tile, a single query, a single key).
[[nodiscard]] AttentionLaunch flash_wgmma_launch(const AttentionDims& dims, DType dtype);

}  // namespace archbench::kernels::attention
