// The attention family's float64 reference on cases whose answer is known by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/attention/attention_dims.hpp"
#include "kernels/attention/attention_reference.hpp"

namespace archbench::kernels::attention {
namespace {

std::vector<double> random_values(size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

// Q, K and V for `d`, drawn in that order from [-1, 1) by a generator seeded with `seed`.
struct Qkv {
  std::vector<double> q, k, v;
};
Qkv random_qkv(const AttentionDims& d, unsigned seed) {
  std::mt19937_64 rng(seed);
  Qkv t;
  t.q = random_values(d.q_numel(), rng);
  t.k = random_values(d.kv_numel(), rng);
  t.v = random_values(d.kv_numel(), rng);
  return t;
}

TEST(AttentionReference, OneKeyGivesItsValueRowToEveryQuery) {
  const AttentionDims d{1, 2, 3, 1, 4};
  const auto [q, k, v] = random_qkv(d, 1);
  const auto o = reference_attention(q, k, v, d);
  for (size_t head = 0; head < 2; ++head) {
    for (size_t i = 0; i < 3; ++i) {
      for (size_t c = 0; c < 4; ++c) EXPECT_DOUBLE_EQ(o[(head * 3 + i) * 4 + c], v[head * 4 + c]);
    }
  }
}

TEST(AttentionReference, IdenticalKeysGiveTheMeanOfTheValues) {
  const AttentionDims d{1, 1, 4, 5, 8};
  std::mt19937_64 rng(2);
  const auto q = random_values(d.q_numel(), rng);
  const auto key = random_values(8, rng);
  std::vector<double> k;
  for (int j = 0; j < 5; ++j) k.insert(k.end(), key.begin(), key.end());
  const auto v = random_values(d.kv_numel(), rng);
  const auto o = reference_attention(q, k, v, d);
  for (size_t i = 0; i < 4; ++i) {
    for (size_t c = 0; c < 8; ++c) {
      double mean = 0;
      for (size_t j = 0; j < 5; ++j) mean += v[j * 8 + c] / 5.0;
      EXPECT_NEAR(o[i * 8 + c], mean, 1e-15);
    }
  }
}

// d = 2, so the scale is 1/sqrt(2). Keys (sqrt(2)·ln(j+1), 0) give the query (1, 0) the logits
// ln 1, ln 2, ln 3, i.e. the weights 1/6, 2/6, 3/6; the query (0, 5) sees equal logits (1/3 each).
// Nq = 2 != Nk = 3.
TEST(AttentionReference, HandComputedWeightsWithFewerQueriesThanKeys) {
  const AttentionDims d{1, 1, 2, 3, 2};
  const double r2 = std::sqrt(2.0);
  const std::vector<double> q{1, 0, 0, 5};
  const std::vector<double> k{0, 0, r2 * std::log(2.0), 0, r2 * std::log(3.0), 0};
  const std::vector<double> v{1, 0, 0, 1, 6, -6};
  const auto o = reference_attention(q, k, v, d);
  ASSERT_EQ(o.size(), 4u);
  EXPECT_NEAR(o[0], 1.0 / 6 + 3.0, 1e-14);        // 1/6·1 + 2/6·0 + 3/6·6
  EXPECT_NEAR(o[1], 2.0 / 6 - 3.0, 1e-14);        // 1/6·0 + 2/6·1 + 3/6·(-6)
  EXPECT_NEAR(o[2], (1.0 + 0 + 6) / 3, 1e-14);    // the mean
  EXPECT_NEAR(o[3], (0.0 + 1 - 6) / 3, 1e-14);
}

// More queries than keys, a different answer per query.
TEST(AttentionReference, HandComputedWeightsWithMoreQueriesThanKeys) {
  const AttentionDims d{1, 1, 3, 2, 2};
  const double r2 = std::sqrt(2.0);
  const std::vector<double> k{r2 * std::log(3.0), 0, 0, 0};  // logits ln 3 and 0 for the query (1, 0)
  const std::vector<double> q{1, 0, -1, 0, 0, 1};            // weights 3:1, 1:3, 1:1
  const std::vector<double> v{4, 8, 0, -4};
  const auto o = reference_attention(q, k, v, d);
  const std::vector<double> want{3.0, 5.0, 1.0, -1.0, 2.0, 2.0};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(o[i], want[i], 1e-14) << i;
}

// Logits near 10^4 overflow exp() unless the row maximum is subtracted first.
TEST(AttentionReference, LargeLogitsAreNumericallyStable) {
  const AttentionDims d{1, 1, 1, 3, 2};
  const double r2 = std::sqrt(2.0);
  const std::vector<double> q{1, 0};
  // logits 1e4, 1e4 + ln 2, 1e4 - 1000 (weight about e^-1000: 0 in double)
  const std::vector<double> k{r2 * 1e4, 0, r2 * (1e4 + std::log(2.0)), 0, r2 * (1e4 - 1000), 0};
  const std::vector<double> v{3, 0, 0, 3, 100, 100};
  const auto o = reference_attention(q, k, v, d);
  EXPECT_TRUE(std::isfinite(o[0]) && std::isfinite(o[1]));
  EXPECT_NEAR(o[0], 1.0, 1e-9);  // 1/3 · 3
  EXPECT_NEAR(o[1], 2.0, 1e-9);  // 2/3 · 3

  const std::vector<double> neg_q{-1, 0};  // logits near -1e4 underflow exp() without the shift
  const auto o2 = reference_attention(neg_q, k, v, d);
  EXPECT_NEAR(o2[0], 100.0, 1e-9);  // the third key (logit -9000) dominates by e^9000
  EXPECT_NEAR(o2[1], 100.0, 1e-9);
}

// Each (batch, head) slice of the BHND tensors is an independent attention problem.
TEST(AttentionReference, BatchesAndHeadsAreIndependentSlices) {
  const AttentionDims d{2, 3, 5, 7, 8};
  const auto [q, k, v] = random_qkv(d, 3);
  const auto o = reference_attention(q, k, v, d);
  const AttentionDims one{1, 1, 5, 7, 8};
  for (size_t head = 0; head < 6; ++head) {
    auto slice = [&](const std::vector<double>& t, size_t rows) {
      return std::vector<double>(t.begin() + static_cast<std::ptrdiff_t>(head * rows * 8),
                                 t.begin() + static_cast<std::ptrdiff_t>((head + 1) * rows * 8));
    };
    const auto want = reference_attention(slice(q, 5), slice(k, 7), slice(v, 7), one);
    const auto got = slice(o, 5);
    for (size_t i = 0; i < want.size(); ++i) EXPECT_DOUBLE_EQ(got[i], want[i]) << "head " << head << " i " << i;
  }
}

TEST(AttentionReference, RejectsMismatchedSizesAndEmptyDims) {
  const AttentionDims d{1, 1, 2, 3, 4};
  const std::vector<double> q(8), kv(12);
  EXPECT_THROW((void)reference_attention(q, kv, std::vector<double>(11), d), std::invalid_argument);
  EXPECT_THROW((void)reference_attention(std::vector<double>(7), kv, kv, d), std::invalid_argument);
  EXPECT_THROW((void)reference_attention({}, {}, {}, AttentionDims{1, 1, 0, 3, 4}), std::invalid_argument);
}

}  // namespace
}  // namespace archbench::kernels::attention
