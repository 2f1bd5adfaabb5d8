#include "kernels/matmul/gemm_reference.hpp"

#include <cstddef>
#include <stdexcept>

#include "harness/util/float64_dot.hpp"
#include "harness/util/parallel_for.hpp"

namespace archbench::kernels::matmul {

std::vector<double> reference_gemm(const std::vector<double>& a, const std::vector<double>& b, GemmDims d) {
  const auto m = static_cast<size_t>(d.M), n = static_cast<size_t>(d.N), k = static_cast<size_t>(d.K);
  if (a.size() != m * k || b.size() != n * k) throw std::invalid_argument("reference_gemm: sizes do not match");
  std::vector<double> c(m * n);
  parallel_rows(m, [&](size_t i) {
    const double* ai = &a[i * k];
    for (size_t j = 0; j < n; ++j) {
      c[i * n + j] = dot(ai, &b[j * k], k);
    }
  });
  return c;
}

}  // namespace archbench::kernels::matmul
