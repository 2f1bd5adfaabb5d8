// The norm family's float64 references on hand-checkable cases, and the NHWC GroupNorm against
// the NCHW one on the transposed tensor.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/norm/norm_reference.hpp"

namespace archbench::kernels::norm {
namespace {

std::vector<double> random_values(size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-2.0, 3.0);
  std::vector<double> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

TEST(LayerNormReference, HandCase) {
  // Row [1, 2, 3, 4]: mean 2.5, biased variance 1.25.
  const std::vector<double> x{1, 2, 3, 4, 7, 7, 7, 7};
  const auto y = layernorm_reference(x, {}, {}, 2, 4, 0.0);
  const double r = 1.0 / std::sqrt(1.25);
  EXPECT_NEAR(y[0], -1.5 * r, 1e-15);
  EXPECT_NEAR(y[1], -0.5 * r, 1e-15);
  EXPECT_NEAR(y[2], 0.5 * r, 1e-15);
  EXPECT_NEAR(y[3], 1.5 * r, 1e-15);
  for (size_t i = 4; i < 8; ++i) EXPECT_TRUE(std::isnan(y[i]));  // a constant row with eps 0 is 0 / 0, as in PyTorch
  const auto z = layernorm_reference(x, {}, {}, 2, 4, 1e-5);
  for (size_t i = 4; i < 8; ++i) EXPECT_EQ(z[i], 0.0);  // eps keeps it finite
}

TEST(LayerNormReference, AffineAndEps) {
  const std::vector<double> x{1, 3};  // mean 2, var 1
  const auto y = layernorm_reference(x, {2.0, -1.0}, {0.5, 0.25}, 1, 2, 3.0);
  const double r = 1.0 / std::sqrt(1.0 + 3.0);  // = 0.5
  EXPECT_NEAR(y[0], -1.0 * r * 2.0 + 0.5, 1e-15);
  EXPECT_NEAR(y[1], 1.0 * r * -1.0 + 0.25, 1e-15);
}

TEST(RmsNormReference, HandCase) {
  // [3, 4]: mean square 12.5.
  const auto y = rmsnorm_reference({3, 4}, {1.0, 2.0}, 1, 2, 0.0);
  EXPECT_NEAR(y[0], 3.0 / std::sqrt(12.5), 1e-15);
  EXPECT_NEAR(y[1], 2.0 * 4.0 / std::sqrt(12.5), 1e-15);
}

TEST(GroupNormReference, HandCaseOneGroupOfTwoChannels) {
  // NCHW [1, 2, 2]: one group holds 1, 2, 3, 4 (mean 2.5, var 1.25); per-channel affine.
  const GroupNormDims d{1, 2, 2, 1, false};
  const auto y = groupnorm_reference({1, 2, 3, 4}, {1.0, 2.0}, {0.0, 1.0}, d, 0.0, false);
  const double r = 1.0 / std::sqrt(1.25);
  EXPECT_NEAR(y[0], -1.5 * r, 1e-15);
  EXPECT_NEAR(y[1], -0.5 * r, 1e-15);
  EXPECT_NEAR(y[2], 2.0 * 0.5 * r + 1.0, 1e-15);
  EXPECT_NEAR(y[3], 2.0 * 1.5 * r + 1.0, 1e-15);
}

TEST(GroupNormReference, GroupsAreNormalizedSeparatelyAndSiluIsApplied) {
  // Two groups of one channel: [0, 2] (mean 1, var 1) and [10, 30] (mean 20, var 100).
  const GroupNormDims d{1, 2, 2, 2, false};
  const auto y = groupnorm_reference({0, 2, 10, 30}, {1.0, 1.0}, {0.0, 1.0}, d, 0.0, false);
  EXPECT_NEAR(y[0], -1.0, 1e-15);
  EXPECT_NEAR(y[1], 1.0, 1e-15);
  EXPECT_NEAR(y[2], 0.0, 1e-15);
  EXPECT_NEAR(y[3], 2.0, 1e-15);
  const auto s = groupnorm_reference({0, 2, 10, 30}, {1.0, 1.0}, {0.0, 1.0}, d, 0.0, true);
  EXPECT_NEAR(s[0], -1.0 / (1.0 + std::exp(1.0)), 1e-15);  // silu(-1)
  EXPECT_NEAR(s[1], 0.7310585786300049, 1e-15);            // silu(1)
  EXPECT_NEAR(s[2], 0.0, 1e-15);
  EXPECT_NEAR(s[3], 2.0 / (1.0 + std::exp(-2.0)), 1e-15);
}

TEST(GroupNormReference, NhwcEqualsNchwOnTheTransposedTensor) {
  const size_t n = 2, c = 12, hw = 10, groups = 4;
  const auto x = random_values(n * c * hw, 7);
  const auto gamma = random_values(c, 8), beta = random_values(c, 9);
  for (const bool silu : {false, true}) {
    const auto nchw = groupnorm_reference(x, gamma, beta, {n, c, hw, groups, false}, 1e-6, silu);
    const auto nhwc = groupnorm_reference(nchw_to_nhwc(x, n, c, hw), gamma, beta, {n, c, hw, groups, true}, 1e-6, silu);
    const auto expected = nchw_to_nhwc(nchw, n, c, hw);
    ASSERT_EQ(nhwc.size(), expected.size());
    for (size_t i = 0; i < nhwc.size(); ++i) EXPECT_NEAR(nhwc[i], expected[i], 1e-12) << "element " << i;
  }
}

TEST(GroupNormReference, TransposeMovesChannelsLast) {
  // [1, 2 channels, 3 pixels] -> [1, 3 pixels, 2 channels].
  EXPECT_EQ(nchw_to_nhwc({0, 1, 2, 10, 11, 12}, 1, 2, 3), (std::vector<double>{0, 10, 1, 11, 2, 12}));
}

TEST(GroupNormReference, RejectsChannelsNotAMultipleOfGroups) {
  EXPECT_THROW((void)groupnorm_reference(std::vector<double>(6), std::vector<double>(3), std::vector<double>(3),
                                         {1, 3, 2, 2, false}, 1e-6, false),
               std::invalid_argument);
}

}  // namespace
}  // namespace archbench::kernels::norm
