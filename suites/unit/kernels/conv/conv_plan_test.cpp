// How the own convolution kernels cut a problem: tile variants, split-K, shape and plan
// validation. The H200 expectations use its 132 SMs with the resident blocks of each variant:
// 2 of the 128-thread 64 x 64 / 64 x 80 warp-tile variants, 1 of the 256-thread (sliced-K) ones,
// 3 of the 128-thread 8-byte-copy one.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "kernels/conv/conv_plan.hpp"

namespace archbench::kernels::conv {
namespace {

constexpr long long kH200OnePerSm = 132;
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

// Resident blocks per H200 of a variant (see the file comment).
long long h200_slots(const TensorCoreTile& t) {
  if (t.chunk == 4) return kH200ThreePerSm;
  return t.warps_k > 1 ? kH200OnePerSm : kH200TwoPerSm;
}

// The plan plan_conv_tc makes on the H200 for a given variant, or for the rule's.
ConvPlan tc_plan(const ConvDims& d, const TensorCoreTile& t) {
  return with_split_k(plan_with_tile(t), d, h200_slots(t));
}

ConvPlan simt_plan(const ConvDims& d) {
  ConvPlan tiles;
  tiles.block_m = kSimtBlockM;
  tiles.block_n = kSimtBlockN;
  tiles.block_k = kSimtBlockK;
  return with_split_k(tiles, d, kH200TwoPerSm);
}

TEST(ConvPlan, TensorCoreTileRule) {
  auto rule = [](const ConvDims& d) { return tile_of(tensor_core_tiles(d)); };
  auto macs = [](const ConvDims& d) { return d.gemm_m() * d.K * d.gemm_k(); };
  EXPECT_TRUE(same_tile(rule(kRow1), kTileK160));  // K = 320: two 160-wide tiles
  EXPECT_TRUE(same_tile(rule(kRow5), kTileK160));
  EXPECT_TRUE(same_tile(rule(kRow8), kTileK160Large));  // 3.0e10 multiply-adds
  EXPECT_TRUE(same_tile(rule(kRow2), kTileK160));       // K = 1280, 7.5e9 multiply-adds
  EXPECT_TRUE(same_tile(rule(kRow3), kTileK128));       // K = 1280, 1.9e9
  EXPECT_TRUE(same_tile(rule(kRow4), kTileK160));       // K = 1280, 1.5e10
  EXPECT_TRUE(same_tile(rule(kRow6), kTileK128));       // K = 640
  EXPECT_LT(macs(kRow1), kLargeMinMacs);
  EXPECT_LT(macs(kRow4), kLargeMinMacs);
  EXPECT_GE(macs(kRow8), kLargeMinMacs);
  EXPECT_GE(macs(kRow2), kK160MinMacs);
  EXPECT_LT(macs(kRow3), kK160MinMacs);
  // Large but K not a multiple of 160 (a 160-wide tile would leave part of one empty): 128.
  EXPECT_TRUE(same_tile(rule(ConvDims{2, 64, 64, 512, 512, 3, 3, 1, 1}), kTileK128));
  EXPECT_TRUE(same_tile(rule(kRow7), kTileC4));    // C = 4: 8-byte copies
  EXPECT_TRUE(same_tile(rule(ConvDims{1, 8, 8, 12, 256, 3, 3, 1, 1}), kTileC4));  // 12 % 8 != 0
  EXPECT_TRUE(same_tile(rule(ConvDims{1, 8, 8, 16, 200, 3, 3, 1, 1}), kTileK128));  // neither: 128
  EXPECT_EQ(kTileK128.block_n, 128);
  EXPECT_EQ(kTileK160.block_n, 160);
  EXPECT_EQ(kTileK128.chunk, 8);
  EXPECT_EQ(kTileK160.chunk, 8);
  EXPECT_EQ(kTileK160Large.block_n, 160);
  EXPECT_EQ(kTileK160Large.warps_k, 1);
  EXPECT_EQ(kTileC4.chunk, 4);
  // Not yet split: one slice of every k-tile.
  for (const ConvDims& d : {kRow1, kRow2, kRow4, kRow6, kRow7}) {
    const ConvPlan p = tensor_core_tiles(d);
    EXPECT_EQ(p.splits, 1) << d.str();
    EXPECT_EQ(p.k_tiles_per_split, (d.gemm_k() + p.block_k - 1) / p.block_k) << d.str();
  }
  // Every rule tile is a built variant.
  for (const TensorCoreTile& t : {kTileK128, kTileK160, kTileK160Large, kTileC4}) {
    bool built = false;
    for (const TensorCoreTile& b : kTensorCoreTiles) built = built || same_tile(t, b);
    EXPECT_TRUE(built);
  }
}

TEST(ConvPlan, SmallDeviceTiles) {
  // Where the rule's variant needs more shared memory than a block may have (CC 8.6, 8.9, 12.0).
  auto small = [](const ConvDims& d) { return tile_of(tensor_core_tiles(d, true)); };
  EXPECT_TRUE(same_tile(small(kRow1), kTileK160Small));
  EXPECT_TRUE(same_tile(small(kRow8), kTileK160Small));
  EXPECT_TRUE(same_tile(small(kRow4), kTileK160Small));
  EXPECT_TRUE(same_tile(small(kRow2), kTileK160Small));  // (on the H200 too: 50.9 against 53.1 µs)
  EXPECT_TRUE(same_tile(small(kRow3), kTileK128Small));
  EXPECT_TRUE(same_tile(small(kRow6), kTileK128Small));
  EXPECT_TRUE(same_tile(small(kRow7), kTileC4));
  EXPECT_EQ(kTileK160Small.block_n, 160);
  EXPECT_EQ(kTileK128Small.block_n, 128);
  EXPECT_EQ(kTileK128Small.warps_k, 1);  // the sliced-K variants are the large ones
  EXPECT_EQ(kTileK160Small.warps_k, 1);
}

TEST(ConvPlan, PlanNames) {
  EXPECT_EQ(plan_with_tile(kTileM128N160SlicedK).str(), "m128_n160_k64_sk2_c8_split1x0");
  EXPECT_EQ(tc_plan(kRow7, kTileM128N64C4).str(), "m128_n64_k32_c4_split1x2");  // 36 -> 2 k-tiles
  EXPECT_EQ(simt_plan(kRow5).str(), "m128_n128_k8_c8_split5x72");
}

TEST(ConvPlan, SplitKOnTheH200) {
  // Enough output tiles for the machine: no split.
  EXPECT_EQ(tc_plan(kRow1, kTileM128N160SlicedK).str(), "m128_n160_k64_sk2_c8_split1x45");  // 128 tiles, 132 slots
  EXPECT_EQ(tc_plan(kRow8, kTileM128N160SlicedK).splits, 1);
  EXPECT_EQ(tc_plan(kRow8, kTileM128N160).str(), "m128_n160_k32_c8_split1x90");  // 512 tiles
  EXPECT_EQ(tc_plan(kRow7, kTileM128N64C4).splits, 1);  // 320 tiles, 396 slots
  // Few output tiles: split until one wave is full, never past it.
  EXPECT_EQ(tc_plan(kRow1, kTileM128N160).str(), "m128_n160_k32_c8_split2x45");    // 128 x 2 = 256 <= 264
  EXPECT_EQ(tc_plan(kRow2, kTileM128N128).str(), "m128_n128_k32_c8_split6x60");    // 40 tiles x 6 = 240 <= 264
  EXPECT_EQ(tc_plan(kRow2, kTileM128N128SlicedK).str(), "m128_n128_k64_sk2_c8_split3x60");  // 40 x 3 <= 132
  EXPECT_EQ(tc_plan(kRow3, kTileM128N128).str(), "m128_n128_k32_c8_split26x14");   // 10 tiles x 26 = 260 <= 264
  EXPECT_EQ(tc_plan(kRow3, kTileM128N128SlicedK).str(), "m128_n128_k64_sk2_c8_split13x14");
  EXPECT_EQ(tc_plan(kRow4, kTileM128N128).str(), "m128_n128_k32_c8_split6x120");
  EXPECT_EQ(tc_plan(kRow4, kTileM128N160).str(), "m128_n160_k32_c8_split8x90");     // 32 tiles x 8 = 256
  EXPECT_EQ(tc_plan(kRow5, kTileM128N160).str(), "m128_n160_k32_c8_split8x12");     // 32 tiles x 8 = 256
  EXPECT_EQ(tc_plan(kRow5, kTileM128N160SlicedK).str(), "m128_n160_k64_sk2_c8_split4x12");  // 45 = 3 x 12 + 9
  EXPECT_EQ(tc_plan(kRow6, kTileM128N128).str(), "m128_n128_k32_c8_split3x10");     // 80 tiles; 30 k-tiles, >= 8 each
  EXPECT_EQ(tc_plan(kRow6, kTileM128N128SlicedK).str(), "m128_n128_k64_sk2_c8_split1x15");  // 80 tiles, 132 slots
  // SIMT: 128 x 128 tiles, k-tiles of 8.
  EXPECT_EQ(simt_plan(kRow1).splits, 1);
  EXPECT_EQ(simt_plan(kRow5).str(), "m128_n128_k8_c8_split5x72");
  EXPECT_EQ(simt_plan(kRow6).str(), "m128_n128_k8_c8_split3x40");
  EXPECT_EQ(simt_plan(kRow7).str(), "m128_n128_k8_c8_split1x5");
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
  const ConvPlan good = tc_plan(kRow3, kTileM128N128);  // 26 x 14 over 360 k-tiles of 32
  EXPECT_NO_THROW(validate_plan(good, kRow3, "test"));
  // The check shape of a benchmark has the same reduction: the bench plan fits it.
  EXPECT_NO_THROW(validate_plan(good, kRow3.check_dims(), "test"));
  ConvPlan short_cover = good;
  short_cover.splits = 25;  // 350 < 360
  EXPECT_THROW(validate_plan(short_cover, kRow3, "test"), std::invalid_argument);
  ConvPlan empty_slice = good;
  empty_slice.splits = 27;  // slice 26 would start at 364 > 360
  EXPECT_THROW(validate_plan(empty_slice, kRow3, "test"), std::invalid_argument);
  // A plan for another reduction length does not fit.
  EXPECT_THROW(validate_plan(good, kRow1, "test"), std::invalid_argument);
  // Nor one for another k-tile width: 26 x 14 of 64 would be 180 k-tiles.
  ConvPlan wider = good;
  wider.block_k = 64;
  EXPECT_THROW(validate_plan(wider, kRow3, "test"), std::invalid_argument);
}

}  // namespace
}  // namespace archbench::kernels::conv
