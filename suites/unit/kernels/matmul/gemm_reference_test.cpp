// The matmul family's float64 reference (C = A · Bᵀ, both operands K-contiguous) on cases small
// enough to check by hand, and against a plain triple loop on random operands.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/matmul/gemm_reference.hpp"

namespace archbench::kernels::matmul {
namespace {

TEST(GemmReference, HandComputedTwoByTwo) {
  // A = [[1, 2], [3, 4]], B = [[5, 6], [7, 8]] as rows of Bᵀ: C[i][j] = A[i] · B[j].
  const std::vector<double> a{1, 2, 3, 4}, b{5, 6, 7, 8};
  EXPECT_EQ(reference_gemm(a, b, GemmDims{2, 2, 2}), (std::vector<double>{17, 23, 39, 53}));
}

TEST(GemmReference, RectangularAgainstATripleLoop) {
  const GemmDims d{37, 19, 301};  // odd sizes, more rows than one chunk of the row split
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(static_cast<size_t>(d.M) * d.K), b(static_cast<size_t>(d.N) * d.K);
  for (auto& x : a) x = u(rng);
  for (auto& x : b) x = u(rng);
  const std::vector<double> c = reference_gemm(a, b, d);
  ASSERT_EQ(c.size(), static_cast<size_t>(d.M) * d.N);
  for (int i = 0; i < d.M; ++i) {
    for (int j = 0; j < d.N; ++j) {
      double s = 0, magnitude = 0;
      for (int k = 0; k < d.K; ++k) {
        const double product = a[static_cast<size_t>(i) * d.K + k] * b[static_cast<size_t>(j) * d.K + k];
        s += product;
        magnitude += std::abs(product);
      }
      // Another order of summation: equal up to float64 rounding, K eps of the magnitude at most.
      ASSERT_NEAR(c[static_cast<size_t>(i) * d.N + j], s, d.K * 0x1p-52 * magnitude) << i << "," << j;
    }
  }
}

TEST(GemmReference, MismatchedSizesAreAnError) {
  EXPECT_THROW((void)reference_gemm(std::vector<double>(6), std::vector<double>(4), GemmDims{2, 2, 2}),
               std::invalid_argument);
}

}  // namespace
}  // namespace archbench::kernels::matmul
