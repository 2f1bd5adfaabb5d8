// Float64 CPU references of the norm family (what the GPU results are checked against, and what
// suites/unit checks on hand-made cases).
#pragma once

#include <cstddef>
#include <vector>

namespace archbench::kernels::norm {

// Rows of x [rows, cols]: (x - mean) / sqrt(var + eps), then * gamma + beta when both are given
// (non-empty); biased variance, as torch.nn.functional.layer_norm.
[[nodiscard]] std::vector<double> layernorm_reference(const std::vector<double>& x, const std::vector<double>& gamma,
                                                      const std::vector<double>& beta, size_t rows, size_t cols,
                                                      double eps);
// Rows of x [rows, cols]: x / sqrt(mean(x^2) + eps) * weight.
[[nodiscard]] std::vector<double> rmsnorm_reference(const std::vector<double>& x, const std::vector<double>& weight,
                                                    size_t rows, size_t cols, double eps);

struct GroupNormDims {
  size_t n = 0, c = 0, hw = 0, groups = 0;
  bool nhwc = false;  // x is [n, hw, c] instead of [n, c, hw]
};
// torch.nn.functional.group_norm (biased variance over each group's c / groups channels and hw
// pixels) with per-channel gamma and beta, optionally followed by SiLU; y in x's layout.
[[nodiscard]] std::vector<double> groupnorm_reference(const std::vector<double>& x, const std::vector<double>& gamma,
                                                      const std::vector<double>& beta, const GroupNormDims& d,
                                                      double eps, bool silu);
// [n, c, hw] -> [n, hw, c].
[[nodiscard]] std::vector<double> nchw_to_nhwc(const std::vector<double>& x, size_t n, size_t c, size_t hw);

}  // namespace archbench::kernels::norm
