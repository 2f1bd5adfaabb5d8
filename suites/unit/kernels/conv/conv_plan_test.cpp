// How the own convolution kernels cut a problem: tile variants, split-K, shape and plan
// validation. The H200 expectations use its 132 SMs with 2 resident blocks of the 256-thread
// variants and 3 of the 128-thread (64-channel) one.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "kernels/conv/conv_plan.hpp"

namespace archbench::kernels::conv {
namespace {

constexpr long long kH200TwoPerSm = 132 * 2;
constexpr long long kH200ThreePerSm = 132 * 3;

// {N, H, W, C, K, R, S, stride, pad}, docs/reference/workload.md, "The operator set" (conv row).
const ConvDims kRow1{2, 64, 64, 320, 320, 3, 3, 1, 1};
const ConvDims kRow2{2, 16, 16, 1280, 1280, 3, 3, 1, 1};
const ConvDims kRow3{2, 8, 8, 1280, 1280, 3, 3, 1, 1};
const ConvDims kRow4{2, 16, 16, 2560, 1280, 3, 3, 1, 1};
const ConvDims kRow5{2, 64, 64, 320, 320, 3, 3, 2, 1};
const ConvDims kRow6{2, 32, 32, 960, 640, 1, 1, 1, 0};
const ConvDims kRow7{2, 64, 64, 4, 320, 3, 3, 1, 1};
const ConvDims kRow8{2, 128, 128, 320, 320, 3, 3, 1, 1};

ConvPlan tc_plan(const ConvDims& d) {
  const ConvPlan tiles = tensor_core_tiles(d);
  return with_split_k(tiles, d, kTensorCoreBlockM, kTensorCoreBlockK,
                      tiles.block_n == 128 ? kH200TwoPerSm : kH200ThreePerSm);
}

ConvPlan simt_plan(const ConvDims& d) {
  ConvPlan tiles;
  tiles.block_n = kSimtBlockN;
  return with_split_k(tiles, d, kSimtBlockM, kSimtBlockK, kH200TwoPerSm);
}

TEST(ConvPlan, TensorCoreTileVariants) {
  EXPECT_EQ(tensor_core_tiles(kRow1).str(), "n64_c8_split1x90");  // K = 320: five 64-wide tiles
  EXPECT_EQ(tensor_core_tiles(kRow2).str(), "n128_c8_split1x360");
  EXPECT_EQ(tensor_core_tiles(kRow4).str(), "n128_c8_split1x720");
  EXPECT_EQ(tensor_core_tiles(kRow6).str(), "n128_c8_split1x30");  // K = 640
  EXPECT_EQ(tensor_core_tiles(kRow7).str(), "n64_c4_split1x2");    // C = 4: 8-byte copies, 36 -> 2 k-tiles
  EXPECT_EQ(tensor_core_tiles(ConvDims{1, 8, 8, 4, 256, 3, 3, 1, 1}).block_n, 64);  // c4 exists only at 64
  EXPECT_EQ(tensor_core_tiles(ConvDims{1, 8, 8, 12, 256, 3, 3, 1, 1}).chunk, 4);    // 12 % 8 != 0
}

TEST(ConvPlan, SplitKOnTheH200) {
  // Enough output tiles for the machine: no split.
  EXPECT_EQ(tc_plan(kRow1).splits, 1);  // 64 x 5 = 320 tiles, 396 slots
  EXPECT_EQ(tc_plan(kRow7).splits, 1);
  EXPECT_EQ(tc_plan(kRow8).splits, 1);
  // Few output tiles: split until one wave is full, never past it.
  EXPECT_EQ(tc_plan(kRow2).str(), "n128_c8_split6x60");   // 40 tiles x 6 = 240 <= 264
  EXPECT_EQ(tc_plan(kRow3).str(), "n128_c8_split26x14");  // 10 tiles x 26 = 260 <= 264
  EXPECT_EQ(tc_plan(kRow4).str(), "n128_c8_split6x120");
  EXPECT_EQ(tc_plan(kRow5).str(), "n64_c8_split4x23");  // 80 tiles x 4 = 320 <= 396; 90 = 3 x 23 + 21
  EXPECT_EQ(tc_plan(kRow6).str(), "n128_c8_split3x10");  // 80 tiles; 30 k-tiles, >= 8 each
  // SIMT: 128 x 128 tiles, k-tiles of 8.
  EXPECT_EQ(simt_plan(kRow1).splits, 1);
  EXPECT_EQ(simt_plan(kRow5).str(), "n128_c8_split5x72");
  EXPECT_EQ(simt_plan(kRow6).str(), "n128_c8_split3x40");
  EXPECT_EQ(simt_plan(kRow7).str(), "n128_c8_split1x5");
}

TEST(ConvPlan, SplitKInvariants) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<long long> tiles_dist(1, 600);
  std::uniform_int_distribution<int> k_dist(1, 1000);
  std::uniform_int_distribution<long long> slots_dist(1, 1200);
  for (int trial = 0; trial < 20000; ++trial) {
    const long long tiles = tiles_dist(rng);
    const int k_tiles = k_dist(rng);
    const long long slots = slots_dist(rng);
    const SplitK s = plan_split_k(tiles, k_tiles, slots, kMinKTilesPerSplit);
    SCOPED_TRACE(::testing::Message() << "tiles " << tiles << " k_tiles " << k_tiles << " slots " << slots);
    ASSERT_GE(s.splits, 1);
    ASSERT_LE(s.splits, kMaxSplits);
    // The slices cover the k-tiles exactly and none is empty.
    ASSERT_GE(1LL * s.splits * s.k_tiles_per_split, k_tiles);
    ASSERT_LT(1LL * (s.splits - 1) * s.k_tiles_per_split, k_tiles);
    if (s.splits > 1) {
      ASSERT_LE(tiles * s.splits, slots);                     // never a second wave
      ASSERT_GE(s.k_tiles_per_split, kMinKTilesPerSplit);
    }
    if (tiles >= slots) {
      ASSERT_EQ(s.splits, 1);
    }
  }
  EXPECT_THROW((void)plan_split_k(10, 0, 264, 8), std::invalid_argument);
}

TEST(ConvPlan, WorkspaceOnlyWhenSplit) {
  ConvPlan p = tensor_core_tiles(kRow3);
  EXPECT_EQ(p.workspace_bytes(kRow3), 0u);
  p.splits = 26;
  p.k_tiles_per_split = 14;
  EXPECT_EQ(p.workspace_bytes(kRow3), size_t{26} * 128 * 1280 * sizeof(float));
}

TEST(ConvPlan, ValidateOwnConvSaysWhy) {
  EXPECT_NO_THROW(validate_own_conv(kRow1, "test"));
  EXPECT_NO_THROW(validate_own_conv(kRow7, "test"));  // C = 4 is supported
  try {
    validate_own_conv(ConvDims{1, 8, 8, 3, 16, 3, 3, 1, 1}, "test");
    FAIL() << "C = 3 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("multiple of 4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(validate_own_conv(ConvDims{1, 8, 8, 8, 16, 3, 3, 0, 1}, "test"), std::invalid_argument);
  // 2^31 input elements do not fit the kernels' int offsets.
  EXPECT_THROW(validate_own_conv(ConvDims{64, 1024, 1024, 32, 8, 1, 1, 1, 0}, "test"), std::invalid_argument);
}

TEST(ConvPlan, ValidatePlanChecksTheCover) {
  const ConvPlan good = tc_plan(kRow3);  // 26 x 14 over 360 k-tiles
  EXPECT_NO_THROW(validate_plan(good, kRow3, kTensorCoreBlockK, "test"));
  // The check shape of a benchmark has the same reduction: the bench plan fits it.
  EXPECT_NO_THROW(validate_plan(good, kRow3.check_dims(), kTensorCoreBlockK, "test"));
  ConvPlan short_cover = good;
  short_cover.splits = 25;  // 350 < 360
  EXPECT_THROW(validate_plan(short_cover, kRow3, kTensorCoreBlockK, "test"), std::invalid_argument);
  ConvPlan empty_slice = good;
  empty_slice.splits = 27;  // slice 26 would start at 364 > 360
  EXPECT_THROW(validate_plan(empty_slice, kRow3, kTensorCoreBlockK, "test"), std::invalid_argument);
  // A plan for another reduction length does not fit.
  EXPECT_THROW(validate_plan(good, kRow1, kTensorCoreBlockK, "test"), std::invalid_argument);
}

}  // namespace
}  // namespace archbench::kernels::conv
