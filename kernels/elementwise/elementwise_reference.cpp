#include "kernels/elementwise/elementwise_reference.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "harness/util/parallel_for.hpp"

namespace archbench::kernels::elementwise {

double silu_reference(double v) { return v / (1.0 + std::exp(-v)); }

double gelu_tanh_reference(double v) {
  return 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / std::numbers::pi) * (v + 0.044715 * v * v * v)));
}

double gelu_erf_reference(double v) { return 0.5 * v * (1.0 + std::erf(v / std::numbers::sqrt2)); }

std::vector<double> geglu_reference(const std::vector<double>& x, size_t rows, size_t cols) {
  if (x.size() != rows * 2 * cols) throw std::invalid_argument("geglu_reference: size does not match");
  std::vector<double> y(rows * cols);
  parallel_rows(rows, [&](size_t r) {
    for (size_t c = 0; c < cols; ++c) y[r * cols + c] = x[r * 2 * cols + c] * gelu_erf_reference(x[r * 2 * cols + cols + c]);
  });
  return y;
}

std::vector<double> upsample_nearest2x_reference(const std::vector<double>& x, size_t planes, size_t h, size_t w) {
  if (x.size() != planes * h * w) throw std::invalid_argument("upsample_nearest2x_reference: size does not match");
  std::vector<double> y(4 * x.size());
  for (size_t p = 0; p < planes; ++p) {
    for (size_t oy = 0; oy < 2 * h; ++oy) {
      for (size_t ox = 0; ox < 2 * w; ++ox) y[(p * 2 * h + oy) * 2 * w + ox] = x[(p * h + oy / 2) * w + ox / 2];
    }
  }
  return y;
}

std::vector<double> timestep_embedding_reference(const std::vector<double>& t, size_t dim, double max_period) {
  if (dim < 2) throw std::invalid_argument("timestep_embedding_reference: needs dim >= 2");
  const size_t half = dim / 2;
  std::vector<double> y(t.size() * dim, 0.0);
  for (size_t b = 0; b < t.size(); ++b) {
    for (size_t i = 0; i < half; ++i) {
      const double freq = std::exp(-std::log(max_period) * static_cast<double>(i) / static_cast<double>(half));
      y[b * dim + i] = std::cos(t[b] * freq);
      y[b * dim + half + i] = std::sin(t[b] * freq);
    }
  }
  return y;
}

std::vector<std::array<double, 3>> flux_positions(size_t txt_tokens, size_t rows, size_t cols) {
  std::vector<std::array<double, 3>> ids(txt_tokens, {0.0, 0.0, 0.0});
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) ids.push_back({0.0, static_cast<double>(r), static_cast<double>(c)});
  }
  return ids;
}

RopeTable rope_table(const std::vector<std::array<double, 3>>& ids, const std::array<int, 3>& axes_dim, double theta) {
  RopeTable t;
  t.tokens = ids.size();
  for (const int d : axes_dim) {
    if (d <= 0 || d % 2 != 0) throw std::invalid_argument("rope_table: every axis dim must be even and positive");
    t.pairs += static_cast<size_t>(d) / 2;
  }
  t.cos.resize(t.tokens * t.pairs);
  t.sin.resize(t.tokens * t.pairs);
  for (size_t n = 0; n < t.tokens; ++n) {
    size_t pair = 0;
    for (size_t a = 0; a < axes_dim.size(); ++a) {
      for (int j = 0; j < axes_dim[a] / 2; ++j, ++pair) {
        const double omega = 1.0 / std::pow(theta, 2.0 * j / axes_dim[a]);
        const double angle = ids[n][a] * omega;
        t.cos[n * t.pairs + pair] = std::cos(angle);
        t.sin[n * t.pairs + pair] = std::sin(angle);
      }
    }
  }
  return t;
}

std::vector<double> rope_reference(const std::vector<double>& x, const RopeTable& table, size_t batch, size_t heads) {
  const size_t dim = 2 * table.pairs, rows = batch * heads * table.tokens;
  if (x.size() != rows * dim) throw std::invalid_argument("rope_reference: size does not match");
  std::vector<double> y(x.size());
  parallel_rows(rows, [&](size_t row) {
    const size_t token = row % table.tokens;
    for (size_t j = 0; j < table.pairs; ++j) {
      const double c = table.cos[token * table.pairs + j], s = table.sin[token * table.pairs + j];
      const double x0 = x[row * dim + 2 * j], x1 = x[row * dim + 2 * j + 1];
      y[row * dim + 2 * j] = c * x0 - s * x1;
      y[row * dim + 2 * j + 1] = s * x0 + c * x1;
    }
  });
  return y;
}

}  // namespace archbench::kernels::elementwise
