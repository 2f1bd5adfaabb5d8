// The FlashAttention-style error oracle: an own low-precision kernel must be about as accurate
// as the library it stands beside. Its error against the float64 reference may be at most
// kOracleFactor times the twin's error on the same inputs (same seed and check shape); a normwise
// tolerance alone would let an own kernel lose digits the library keeps.
#pragma once

#include <vector>

#include "harness/ops/registry.hpp"
#include "harness/result/result.hpp"

namespace archbench {

// For every own low-precision result (f16, bf16, FP8) whose operator names an oracle twin present
// in `results` with a correctness check on the same seed and check shape: records the twin's error
// and fails the result when it is more than kOracleFactor times worse.
void apply_error_oracle(std::vector<OperatorResult>& results, const Registry& registry);

}  // namespace archbench
