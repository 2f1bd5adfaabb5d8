// The comparison statistics on synthetic samples.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "harness/baseline/statistics.hpp"
#include "harness/util/quantile.hpp"

namespace archbench::stats {
namespace {

std::vector<double> noisy(double center, double rel_sd, int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> d(center, center * rel_sd);
  std::vector<double> v(static_cast<size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

TEST(Statistics, MedianAndQuantilesAreOneDefinition) {
  EXPECT_DOUBLE_EQ(archbench::median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(archbench::median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(archbench::median({}), 0);
  const std::vector<double> sorted{1, 2, 3, 4, 5};
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.25), 2);
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.5), archbench::median({5, 4, 3, 2, 1}));
  EXPECT_DOUBLE_EQ(quantile_of_sorted({1, 2}, 0.75), 1.75);
}

TEST(Statistics, MannWhitneySeparatesShiftedSamples) {
  const auto a = noisy(1.0, 0.01, 50, 1);
  EXPECT_LT(mann_whitney_p(a, noisy(1.05, 0.01, 50, 2)), 1e-6);   // 5% slower, 1% noise
  EXPECT_GT(mann_whitney_p(a, noisy(1.0, 0.01, 50, 3)), 1e-3);    // same distribution
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 1, 1}, {1, 1, 1}), 1.0);     // all ties
  EXPECT_DOUBLE_EQ(mann_whitney_p({}, {1.0}), 1.0);
}

TEST(Statistics, MannWhitneyKnownValue) {
  // a entirely below b (n1 = n2 = 10): U = 0, z = (50 - 0.5) / sqrt(175) = 3.742, p = 1.83e-4.
  std::vector<double> a, b;
  for (int i = 0; i < 10; ++i) {
    a.push_back(i);
    b.push_back(100 + i);
  }
  EXPECT_NEAR(mann_whitney_p(a, b), 1.83e-4, 0.02e-4);
}

}  // namespace
}  // namespace archbench::stats
