// The float64 CPU reference of the attention family, in the BHND layout of attention_dims.hpp.
#pragma once

#include <vector>

#include "kernels/attention/attention_dims.hpp"

namespace archbench::kernels::attention {

// O in float64, in the BHND layout, with scale 1/sqrt(D); softmax with its maximum subtracted
// (so logits of any size are safe). Sizes of q, k, v must match dims (std::invalid_argument).
[[nodiscard]] std::vector<double> reference_attention(const std::vector<double>& q, const std::vector<double>& k,
                                                      const std::vector<double>& v, const AttentionDims& dims);

}  // namespace archbench::kernels::attention
