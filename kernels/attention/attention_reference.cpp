#include "kernels/attention/attention_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/util/float64_dot.hpp"
#include "harness/util/parallel_for.hpp"

namespace archbench::kernels::attention {

std::vector<double> reference_attention(const std::vector<double>& q, const std::vector<double>& k,
                                        const std::vector<double>& v, const AttentionDims& d) {
  if (d.B < 1 || d.H < 1 || d.Nq < 1 || d.Nk < 1 || d.D < 1) {
    throw std::invalid_argument("reference_attention: every dimension must be >= 1, got " + d.str());
  }
  if (q.size() != d.q_numel() || k.size() != d.kv_numel() || v.size() != d.kv_numel()) {
    throw std::invalid_argument("reference_attention: tensor sizes do not match " + d.str());
  }
  const auto D = static_cast<size_t>(d.D);
  const auto Nq = static_cast<size_t>(d.Nq);
  const auto Nk = static_cast<size_t>(d.Nk);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d.D));
  std::vector<double> o(d.q_numel());
  // Query rows are independent: spread over the host's cores, each computed in the same order on
  // any core count.
  parallel_rows(d.heads() * Nq, [&](size_t row) {
    const size_t head = row / Nq;
    const double* qi = &q[row * D];
    const double* kh = &k[head * Nk * D];
    const double* vh = &v[head * Nk * D];
    std::vector<double> p(Nk);
    double m = -std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < Nk; ++j) {
      p[j] = dot(qi, &kh[j * D], D) * scale;
      m = std::max(m, p[j]);
    }
    double sum = 0;
    for (size_t j = 0; j < Nk; ++j) {
      p[j] = std::exp(p[j] - m);
      sum += p[j];
    }
    double* oi = &o[row * D];
    for (size_t c = 0; c < D; ++c) oi[c] = 0;
    for (size_t j = 0; j < Nk; ++j) {
      const double w_j = p[j] / sum;
      for (size_t c = 0; c < D; ++c) oi[c] += w_j * vh[j * D + c];
    }
  });
  return o;
}

}  // namespace archbench::kernels::attention
