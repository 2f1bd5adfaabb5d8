#include "kernels/norm/norm_reference.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "harness/util/parallel_for.hpp"

namespace archbench::kernels::norm {
namespace {

// Mean and 1 / sqrt(var + eps) of the `count` values at(i), two passes.
template <typename At>
std::pair<double, double> moments(size_t count, double eps, At at) {
  double s = 0;
  for (size_t i = 0; i < count; ++i) s += at(i);
  const double mean = s / static_cast<double>(count);
  double v = 0;
  for (size_t i = 0; i < count; ++i) v += (at(i) - mean) * (at(i) - mean);
  return {mean, 1.0 / std::sqrt(v / static_cast<double>(count) + eps)};
}

}  // namespace

std::vector<double> layernorm_reference(const std::vector<double>& x, const std::vector<double>& gamma,
                                        const std::vector<double>& beta, size_t rows, size_t cols, double eps) {
  const bool affine = !gamma.empty();
  if (x.size() != rows * cols || (affine && (gamma.size() != cols || beta.size() != cols))) {
    throw std::invalid_argument("layernorm_reference: sizes do not match");
  }
  std::vector<double> y(rows * cols);
  parallel_rows(rows, [&](size_t r) {
    const double* row = x.data() + r * cols;
    const auto [mean, rstd] = moments(cols, eps, [&](size_t i) { return row[i]; });
    for (size_t i = 0; i < cols; ++i) {
      const double v = (row[i] - mean) * rstd;
      y[r * cols + i] = affine ? v * gamma[i] + beta[i] : v;
    }
  });
  return y;
}

std::vector<double> rmsnorm_reference(const std::vector<double>& x, const std::vector<double>& weight, size_t rows,
                                      size_t cols, double eps) {
  if (x.size() != rows * cols || weight.size() != cols) throw std::invalid_argument("rmsnorm_reference: sizes do not match");
  std::vector<double> y(rows * cols);
  parallel_rows(rows, [&](size_t r) {
    double ss = 0;
    for (size_t i = 0; i < cols; ++i) ss += x[r * cols + i] * x[r * cols + i];
    const double scale = 1.0 / std::sqrt(ss / static_cast<double>(cols) + eps);
    for (size_t i = 0; i < cols; ++i) y[r * cols + i] = x[r * cols + i] * scale * weight[i];
  });
  return y;
}

std::vector<double> groupnorm_reference(const std::vector<double>& x, const std::vector<double>& gamma,
                                        const std::vector<double>& beta, const GroupNormDims& d, double eps, bool silu) {
  if (d.groups == 0 || d.c % d.groups != 0 || x.size() != d.n * d.c * d.hw || gamma.size() != d.c ||
      beta.size() != d.c) {
    throw std::invalid_argument("groupnorm_reference: sizes do not match");
  }
  const size_t cpg = d.c / d.groups, count = cpg * d.hw;
  // Element i < count of group g of sample n: channel g * cpg + i / hw, pixel i % hw.
  auto index = [&](size_t n, size_t g, size_t i) {
    const size_t ch = g * cpg + i / d.hw, pixel = i % d.hw;
    return d.nhwc ? (n * d.hw + pixel) * d.c + ch : (n * d.c + ch) * d.hw + pixel;
  };
  std::vector<double> y(x.size());
  for (size_t n = 0; n < d.n; ++n) {
    for (size_t g = 0; g < d.groups; ++g) {
      const auto [mean, rstd] = moments(count, eps, [&](size_t i) { return x[index(n, g, i)]; });
      for (size_t i = 0; i < count; ++i) {
        const size_t ch = g * cpg + i / d.hw;
        double v = (x[index(n, g, i)] - mean) * rstd * gamma[ch] + beta[ch];
        if (silu) v = v / (1.0 + std::exp(-v));
        y[index(n, g, i)] = v;
      }
    }
  }
  return y;
}

std::vector<double> nchw_to_nhwc(const std::vector<double>& x, size_t n, size_t c, size_t hw) {
  if (x.size() != n * c * hw) throw std::invalid_argument("nchw_to_nhwc: size does not match");
  std::vector<double> y(x.size());
  for (size_t s = 0; s < n; ++s) {
    for (size_t ch = 0; ch < c; ++ch) {
      for (size_t p = 0; p < hw; ++p) y[(s * hw + p) * c + ch] = x[(s * c + ch) * hw + p];
    }
  }
  return y;
}

}  // namespace archbench::kernels::norm
