// The elementwise family's float64 references on hand-checkable cases: activations at known
// points, the sinusoidal timestep embedding, Flux's positions, rotation table and RoPE.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <vector>

#include "kernels/elementwise/elementwise_reference.hpp"

namespace archbench::kernels::elementwise {
namespace {

TEST(ActivationReference, KnownValues) {
  EXPECT_NEAR(silu_reference(1.0), 0.7310585786300049, 1e-15);
  EXPECT_EQ(silu_reference(0.0), 0.0);
  EXPECT_NEAR(gelu_erf_reference(1.0), 0.8413447460685429, 1e-15);
  EXPECT_NEAR(gelu_tanh_reference(1.0), 0.8411919906082768, 1e-15);
  EXPECT_NEAR(gelu_tanh_reference(-3.0), -0.0036373920817729943, 1e-15);
}

TEST(GegluReference, HiddenTimesGeluOfGate) {
  // One row, cols 2: hidden [2, -3], gate [0, 1].
  const auto y = geglu_reference({2, -3, 0, 1}, 1, 2);
  EXPECT_EQ(y[0], 0.0);
  EXPECT_NEAR(y[1], -3.0 * 0.8413447460685429, 1e-15);
}

TEST(UpsampleReference, RepeatsEachPixelTwiceInBothDirections) {
  const auto y = upsample_nearest2x_reference({1, 2, 3, 4}, 1, 2, 2);
  EXPECT_EQ(y, (std::vector<double>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
}

TEST(TimestepEmbeddingReference, ZeroTimestepIsCosOneSinZero) {
  const auto y = timestep_embedding_reference({0.0, 0.0}, 320);
  ASSERT_EQ(y.size(), 640u);
  for (size_t b = 0; b < 2; ++b) {
    for (size_t i = 0; i < 160; ++i) {
      EXPECT_EQ(y[b * 320 + i], 1.0) << i;
      EXPECT_EQ(y[b * 320 + 160 + i], 0.0) << i;
    }
  }
}

TEST(TimestepEmbeddingReference, SmallDimKnownValues) {
  // dim 4: half 2, f = [1, 10000^(-1/2) = 0.01]; t = 1 -> [cos 1, cos 0.01, sin 1, sin 0.01].
  const auto y = timestep_embedding_reference({1.0}, 4);
  EXPECT_NEAR(y[0], 0.5403023058681398, 1e-15);
  EXPECT_NEAR(y[1], 0.9999500004166653, 1e-15);
  EXPECT_NEAR(y[2], 0.8414709848078965, 1e-15);
  EXPECT_NEAR(y[3], 0.009999833334166664, 1e-15);
  // t = 500: the first frequency is 1, so cos(500) and sin(500).
  const auto z = timestep_embedding_reference({500.0}, 320);
  EXPECT_NEAR(z[0], std::cos(500.0), 1e-15);
  EXPECT_NEAR(z[160], std::sin(500.0), 1e-15);
  // Frequency 159 of 160 is 10000^(-159/160).
  EXPECT_NEAR(z[159], std::cos(500.0 * std::pow(10000.0, -159.0 / 160.0)), 1e-15);
}

TEST(TimestepEmbeddingReference, OddDimEndsWithAZeroColumn) {
  const auto y = timestep_embedding_reference({3.0}, 5);
  ASSERT_EQ(y.size(), 5u);
  EXPECT_NEAR(y[0], std::cos(3.0), 1e-15);
  EXPECT_NEAR(y[2], std::sin(3.0), 1e-15);
  EXPECT_EQ(y[4], 0.0);
}

TEST(FluxPositions, TextAtTheOriginThenImageRowsAndColumns) {
  const auto ids = flux_positions(512, 64, 64);
  ASSERT_EQ(ids.size(), 4608u);
  EXPECT_EQ(ids[0], (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(ids[511], (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(ids[512], (std::array<double, 3>{0, 0, 0}));  // image row 0, column 0
  EXPECT_EQ(ids[513], (std::array<double, 3>{0, 0, 1}));
  EXPECT_EQ(ids[512 + 64], (std::array<double, 3>{0, 1, 0}));
  EXPECT_EQ(ids[4607], (std::array<double, 3>{0, 63, 63}));
}

TEST(RopeTable, AnglesPerAxisFollowFlux) {
  // axes_dim [16, 56, 56]: pairs 0-7 from axis 0, 8-35 from axis 1, 36-63 from axis 2.
  const auto t = rope_table({{0, 0, 0}, {0, 1, 0}, {0, 0, 1}, {2, 0, 0}}, {16, 56, 56}, 1e4);
  ASSERT_EQ(t.pairs, 64u);
  ASSERT_EQ(t.tokens, 4u);
  for (size_t j = 0; j < 64; ++j) {
    EXPECT_EQ(t.cos[j], 1.0);
    EXPECT_EQ(t.sin[j], 0.0);
  }
  EXPECT_NEAR(t.cos[64 + 8], std::cos(1.0), 1e-15);                                   // axis 1, j = 0: omega 1
  EXPECT_NEAR(t.sin[64 + 9], std::sin(std::pow(1e4, -2.0 / 56.0)), 1e-15);            // axis 1, j = 1
  EXPECT_EQ(t.sin[64 + 36], 0.0);                                                      // axis 2 at position 0
  EXPECT_NEAR(t.sin[128 + 36], std::sin(1.0), 1e-15);                                  // axis 2, j = 0
  EXPECT_NEAR(t.sin[192 + 1], std::sin(2.0 * 0.31622776601683794), 1e-15);            // axis 0, j = 1: 1e4^(-1/8)
  EXPECT_EQ(t.sin[192 + 8], 0.0);                                                      // axis 1 at position 0
}

TEST(RopeReference, PositionZeroIsTheIdentity) {
  const auto t = rope_table({{0, 0, 0}, {0, 0, 0}}, {2, 2, 4}, 1e4);  // dim 8
  std::vector<double> x(2 * 2 * 8);  // batch 2 ... heads 1
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.25 * static_cast<double>(i) - 1.0;
  EXPECT_EQ(rope_reference(x, t, 2, 1), x);
}

TEST(RopeReference, QuarterTurnMapsPairToMinusSecondFirst) {
  // Position pi/2 on axis 1 turns axis 1's first pair (pair 8 of Flux's layout) by 90 degrees.
  const auto t = rope_table({{0, std::numbers::pi / 2, 0}}, {16, 56, 56}, 1e4);
  std::vector<double> x(128);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<double>(i) + 0.5);
  const auto y = rope_reference(x, t, 1, 1);
  EXPECT_NEAR(y[16], -x[17], 1e-15);
  EXPECT_NEAR(y[17], x[16], 1e-15);
  for (size_t j = 0; j < 8; ++j) {  // axis 0 at position 0: untouched
    EXPECT_EQ(y[2 * j], x[2 * j]);
    EXPECT_EQ(y[2 * j + 1], x[2 * j + 1]);
  }
  for (size_t j = 0; j < 64; ++j) {  // every pair keeps its length
    EXPECT_NEAR(std::hypot(y[2 * j], y[2 * j + 1]), std::hypot(x[2 * j], x[2 * j + 1]), 1e-14) << j;
  }
}

TEST(RopeReference, TableIsSharedAcrossBatchAndHeads) {
  const auto t = rope_table({{0, 0, 0}, {0, 1, 2}}, {2, 2, 2}, 1e4);  // dim 6, 2 tokens
  std::vector<double> one(2 * 6);
  for (size_t i = 0; i < one.size(); ++i) one[i] = static_cast<double>(i) - 3.0;
  const auto y1 = rope_reference(one, t, 1, 1);
  std::vector<double> many;
  for (int r = 0; r < 6; ++r) many.insert(many.end(), one.begin(), one.end());  // batch 2 x heads 3
  const auto y6 = rope_reference(many, t, 2, 3);
  for (size_t r = 0; r < 6; ++r) {
    for (size_t i = 0; i < one.size(); ++i) EXPECT_EQ(y6[r * one.size() + i], y1[i]);
  }
}

}  // namespace
}  // namespace archbench::kernels::elementwise
