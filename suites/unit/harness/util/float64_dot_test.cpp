// The references' dot product: right at every length (the four partial sums and the tail), and
// within float64 rounding of the plain running sum.
#include "harness/util/float64_dot.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace archbench {
namespace {

TEST(Float64Dot, ExactOnSmallIntegersAtEveryLength) {
  // Integer products and sums are exact in float64, whatever the order: any lost element shows.
  std::vector<double> a, b;
  for (size_t n = 0; n <= 13; ++n) {
    double expected = 0;
    for (size_t i = 0; i < n; ++i) expected += static_cast<double>((i + 1) * (2 * i + 3));
    a.resize(n);
    b.resize(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = static_cast<double>(i + 1);
      b[i] = static_cast<double>(2 * i + 3);
    }
    EXPECT_EQ(dot(a.data(), b.data(), n), expected) << "n = " << n;
  }
}

TEST(Float64Dot, WithinRoundingOfTheRunningSum) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const size_t n : {1u, 5u, 64u, 2561u}) {
    std::vector<double> a(n), b(n);
    for (auto& x : a) x = u(rng);
    for (auto& x : b) x = u(rng);
    double running = 0, magnitude = 0;
    for (size_t i = 0; i < n; ++i) {
      running += a[i] * b[i];
      magnitude += std::abs(a[i] * b[i]);
    }
    EXPECT_NEAR(dot(a.data(), b.data(), n), running, static_cast<double>(n) * 0x1p-52 * magnitude) << "n = " << n;
  }
}

}  // namespace
}  // namespace archbench
