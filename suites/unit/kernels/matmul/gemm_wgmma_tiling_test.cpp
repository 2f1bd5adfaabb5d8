// The wgmma GEMM's tile choice: fewest waves x width, on the family's shapes and at the edges.
#include <gtest/gtest.h>

#include "kernels/matmul/gemm_wgmma_tiling.hpp"

namespace archbench::kernels::matmul {
namespace {

constexpr int kH200Clusters = 66;  // 132 SMs, clusters of 2

TEST(WgmmaTiling, FamilyShapesOnTheH200) {
  // 4096^3: 16 x 16 cluster tiles of 256 = 3.9 waves; narrower tiles need more waves per width.
  EXPECT_EQ(wgmma_tile_width(4096, 4096, kH200Clusters), 256);
  // 4608 x 12288: 256 wide = 864 tiles, 13.1 waves (the 14th nearly empty); 224 wide = 990 = 15 full waves.
  EXPECT_EQ(wgmma_tile_width(4608, 12288, kH200Clusters), 224);
  EXPECT_EQ(wgmma_tile_width(8192, 960, kH200Clusters), 256);
  EXPECT_EQ(wgmma_tile_width(8192, 2560, kH200Clusters), 256);
}

TEST(WgmmaTiling, TiesKeepTheWidestTile) {
  // One cluster, N = 1750: 7 tiles of 256 and 8 of 224 both cost 1792 columns; 10 of 192 cost 1920.
  EXPECT_EQ(wgmma_tile_width(256, 1750, 1), 256);
}

TEST(WgmmaTiling, OneTileTakesTheNarrowest) {
  EXPECT_EQ(wgmma_tile_width(1, 1, kH200Clusters), 192);  // one wave either way: less width, less work
}

TEST(WgmmaTiling, NarrowerWhenItSavesAWave) {
  // 1 cluster row x N: 192 wide needs 2 tiles for N = 384, 256 wide needs 2 as well; with a single
  // resident cluster that is 2 x 192 < 2 x 256.
  EXPECT_EQ(wgmma_tile_width(256, 384, 1), 192);
}

// The convolution's set adds 160, which divides SD's 320- and 640-channel outputs: one wave of
// 160-wide tiles instead of one of 192-wide ones of which a sixth is empty. The GEMM's set, without
// 160, keeps 192 there. Its 128 and 96 fill a device where a wave leaves SMs idle (the convolution's
// plan offers them only where it does not split the reduction: conv_wgmma_geometry_test.cpp).
TEST(WgmmaTiling, TheConvolutionsWidthsFitItsChannelCounts) {
  const auto& conv = kConvWgmmaTileWidths;
  constexpr size_t kWide = 4;  // 256, 224, 192, 160
  EXPECT_EQ(wgmma_tile_width(8192, 320, kH200Clusters), 192);
  EXPECT_EQ(wgmma_tile_width(8192, 320, kH200Clusters, conv), 160);  // 96 would take two waves
  EXPECT_EQ(wgmma_tile_width(2048, 640, kH200Clusters, conv.data(), kWide), 160);
  EXPECT_EQ(wgmma_tile_width(2048, 640, kH200Clusters, conv), 96);  // 112 CTAs instead of 64
  EXPECT_EQ(wgmma_tile_width(512, 1280, kH200Clusters, conv.data(), kWide), 160);
  EXPECT_EQ(wgmma_tile_width(4096, 4096, kH200Clusters, conv), 256);  // a wider tile still wins
}

TEST(WgmmaTiling, AtLeastOneCluster) {
  EXPECT_EQ(wgmma_tile_width(4096, 4096, 0), wgmma_tile_width(4096, 4096, 1));
}

}  // namespace
}  // namespace archbench::kernels::matmul
