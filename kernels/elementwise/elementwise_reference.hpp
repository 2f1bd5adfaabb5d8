// Float64 CPU references of the elementwise family (what the GPU results are checked against,
// and what suites/unit checks on hand-made cases).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace archbench::kernels::elementwise {

[[nodiscard]] double silu_reference(double v);
[[nodiscard]] double gelu_tanh_reference(double v);  // 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3)))
[[nodiscard]] double gelu_erf_reference(double v);   // 0.5 v (1 + erf(v / sqrt(2)))

// x [rows, 2 * cols] = [hidden | gate] -> [rows, cols] hidden * gelu_erf(gate).
[[nodiscard]] std::vector<double> geglu_reference(const std::vector<double>& x, size_t rows, size_t cols);
// [planes, h, w] -> [planes, 2h, 2w], nearest.
[[nodiscard]] std::vector<double> upsample_nearest2x_reference(const std::vector<double>& x, size_t planes, size_t h,
                                                               size_t w);

// SD1.5 timestep_embedding (openaimodel.py): t [batch] -> [batch, dim] = [cos(t f_i) for i < half,
// sin(t f_i) for i < half] + a zero column when dim is odd; half = dim / 2, f_i = exp(-ln(max_period) i / half).
[[nodiscard]] std::vector<double> timestep_embedding_reference(const std::vector<double>& t, size_t dim,
                                                               double max_period = 10000.0);

// Flux position ids of a joint sequence (flux/sampling.py prepare): `txt_tokens` text tokens at
// (0, 0, 0), then an image grid of rows x cols tokens at (0, row, col), row-major.
[[nodiscard]] std::vector<std::array<double, 3>> flux_positions(size_t txt_tokens, size_t rows, size_t cols);

// The rotation of each (token, pair): Flux's EmbedND / rope (flux/math.py). Axis a contributes
// axes_dim[a] / 2 pairs, in axis order; pair j of axis a turns by pos[a] * theta^(-2j / axes_dim[a]).
struct RopeTable {
  size_t tokens = 0, pairs = 0;  // pairs = sum(axes_dim) / 2 = head dim / 2
  std::vector<double> cos, sin;  // [tokens, pairs]
};
[[nodiscard]] RopeTable rope_table(const std::vector<std::array<double, 3>>& ids, const std::array<int, 3>& axes_dim,
                                   double theta);

// Flux apply_rope on x [batch, heads, tokens, 2 * pairs]: (x[2j], x[2j+1]) ->
// (cos x[2j] - sin x[2j+1], sin x[2j] + cos x[2j+1]).
[[nodiscard]] std::vector<double> rope_reference(const std::vector<double>& x, const RopeTable& table, size_t batch,
                                                 size_t heads);

}  // namespace archbench::kernels::elementwise
