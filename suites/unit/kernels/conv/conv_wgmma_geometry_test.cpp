// Which convolutions the Hopper implicit GEMM takes, how it tiles them, and its check shape.
#include <gtest/gtest.h>

#include <stdexcept>

#include "kernels/conv/conv_wgmma_geometry.hpp"

namespace archbench::kernels::conv {
namespace {

// {N, H, W, C, K, R, S, stride, pad}
TEST(ConvWgmmaGeometry, TilesWholeRowsOrWholeImages) {
  struct Case {
    ConvDims d;
    ConvWgmmaTiles want;
  };
  for (const Case& c : {
           Case{{2, 64, 64, 320, 320, 3, 3, 1, 1}, {64, 2, 1}},      // two rows of 64
           Case{{2, 16, 16, 1280, 1280, 3, 3, 1, 1}, {16, 8, 1}},    // eight rows of 16
           Case{{2, 8, 8, 1280, 1280, 3, 3, 1, 1}, {8, 8, 2}},       // two whole 8x8 images
           Case{{2, 64, 64, 320, 320, 3, 3, 2, 1}, {32, 4, 1}},      // stride 2: a 32x32 output
           Case{{2, 32, 32, 960, 640, 1, 1, 1, 0}, {32, 4, 1}},      // 1x1
           Case{{2, 128, 128, 320, 320, 3, 3, 1, 1}, {128, 1, 1}},   // one row of 128
       }) {
    SCOPED_TRACE(c.d.str());
    EXPECT_EQ(conv_wgmma_unsupported(c.d), "");
    const ConvWgmmaTiles t = conv_wgmma_tiles(c.d);
    EXPECT_EQ(t.box_q, c.want.box_q);
    EXPECT_EQ(t.box_p, c.want.box_p);
    EXPECT_EQ(t.box_n, c.want.box_n);
    EXPECT_EQ(t.box_q * t.box_p * t.box_n, kWgmmaTilePixels);
    EXPECT_EQ(c.d.gemm_m() % kWgmmaTilePixels, 0);
  }
}

TEST(ConvWgmmaGeometry, SaysWhyAShapeIsNotTaken) {
  EXPECT_EQ(conv_wgmma_unsupported({2, 64, 64, 4, 320, 3, 3, 1, 1}), "C = 4 is not a multiple of 64");
  EXPECT_EQ(conv_wgmma_unsupported({2, 64, 64, 320, 100, 3, 3, 1, 1}), "K = 100 is not a multiple of 8");
  EXPECT_EQ(conv_wgmma_unsupported({2, 10, 13, 320, 320, 3, 3, 1, 1}), "Q = 13 does not divide 128");
  EXPECT_EQ(conv_wgmma_unsupported({2, 256, 256, 320, 320, 3, 3, 1, 1}), "Q = 256 does not divide 128");
  // 8x8 images, one of them: a tile would need two.
  EXPECT_EQ(conv_wgmma_unsupported({1, 8, 8, 320, 320, 3, 3, 1, 1}),
            "128-pixel tiles of 16 rows of 8 do not tile 1 images of 8 rows");
  EXPECT_EQ(conv_wgmma_unsupported({2, 0, 8, 320, 320, 3, 3, 1, 1}), "not a valid convolution");
  EXPECT_THROW((void)conv_wgmma_tiles({2, 64, 64, 4, 320, 3, 3, 1, 1}), std::invalid_argument);
}

// An H100 80GB HBM3 as cudaOccupancyMaxActiveClusters saw it (2026-12-06): CTAs of the cluster-split
// kernel resident at once in clusters of 2, 3, 4, 6 and 8 (5 and 7 not read: none here).
ConvWgmmaDevice h100() { return {132, {0, 0, 132, 117, 120, 0, 102, 0, 120}}; }

// On a 132-SM device (H100, H200): the wide tiles and conv_tc's split rule (no split where the tiles
// fill the device, else as many parts as fit in one wave, none empty); narrow tiles only where no
// split is planned or the parts are added up in the cluster.
TEST(ConvWgmmaGeometry, PlansTheWidthAndSplitOnlyWhereTheTilesLeaveSMsIdle) {
  using kernels::matmul::SplitReduction;
  struct Case {
    ConvDims d;
    int pixels, width, splits;
    SplitReduction reduction;
  };
  constexpr auto kWorkspace = SplitReduction::Workspace;
  for (const Case& c : {
           Case{{2, 64, 64, 320, 320, 3, 3, 1, 1}, 128, 160, 1, kWorkspace},    // 128 CTAs
           Case{{2, 128, 128, 320, 320, 3, 3, 1, 1}, 128, 160, 1, kWorkspace},  // 512
           // 32 CTAs x 4 = 128, 180 k-steps: 4 x 45; 128 CTAs in clusters of 4 take two waves (120 fit)
           Case{{2, 16, 16, 1280, 1280, 3, 3, 1, 1}, 128, 160, 4, kWorkspace},
           Case{{2, 16, 16, 2560, 1280, 3, 3, 1, 1}, 128, 160, 4, kWorkspace},  // 32, 360 k-steps
           // 16 CTAs (one pair of pixel tiles) x 8 = 128: 8 x 23. In clusters of 8: 8 tiles x 8 = 64 CTAs
           // fit at 160, and at 96 (14 tiles, 112 CTAs) too
           Case{{2, 8, 8, 1280, 1280, 3, 3, 1, 1}, 128, 96, 8, SplitReduction::InCluster},
           // 128-pixel tiles: 32 CTAs x 4 parts through the workspace; 45 k-steps is short, so 64-pixel
           // tiles: 32 x 2 wide x 2 parts = 128 CTAs in clusters of 2, 23 k-steps x 160 each
           Case{{2, 64, 64, 320, 320, 3, 3, 2, 1}, 64, 160, 2, SplitReduction::InCluster},
           // 128-pixel tiles 96 wide: 112 CTAs leave 20 SMs idle; 15 k-steps: 64 x 160, 128 CTAs
           Case{{2, 32, 32, 960, 640, 1, 1, 1, 0}, 64, 160, 1, kWorkspace},
       }) {
    SCOPED_TRACE(c.d.str());
    const ConvWgmmaPlan plan = conv_wgmma_plan(c.d, h100());
    EXPECT_EQ(plan.pixels, c.pixels);
    EXPECT_EQ(plan.width, c.width);
    EXPECT_EQ(plan.splits, c.splits);
    EXPECT_EQ(plan.reduction, c.reduction);
    EXPECT_EQ(plan.workspace_floats(c.d), c.splits > 1 && c.reduction == kWorkspace ? 4 * c.d.output_numel() : 0);
  }
  // Without cluster-split kernels (no sm_90a, or none fits): the parts go through the workspace.
  const ConvWgmmaPlan workspace = conv_wgmma_plan({2, 8, 8, 1280, 1280, 3, 3, 1, 1}, ConvWgmmaDevice{132, {}});
  EXPECT_EQ(workspace.width, 160);
  EXPECT_EQ(workspace.splits, 8);
  EXPECT_EQ(workspace.reduction, kWorkspace);
  // Without them, 64-pixel tiles do not replace the stride-2 shape's workspace split: unsplit, they lose to it.
  const ConvWgmmaPlan stride2 = conv_wgmma_plan({2, 64, 64, 320, 320, 3, 3, 2, 1}, ConvWgmmaDevice{132, {}});
  EXPECT_EQ(stride2.pixels, kWgmmaTilePixels);
  EXPECT_EQ(stride2.splits, 4);
  EXPECT_EQ(stride2.reduction, kWorkspace);
  // The 1x1's idle SMs are filled by unsplit 64-pixel tiles, which need no cluster kernel.
  const ConvWgmmaPlan one_by_one = conv_wgmma_plan({2, 32, 32, 960, 640, 1, 1, 1, 0}, ConvWgmmaDevice{132, {}});
  EXPECT_EQ(one_by_one.pixels, kWgmmaSmallTilePixels);
  EXPECT_EQ(one_by_one.width, 160);
  EXPECT_EQ(one_by_one.splits, 1);
  // A small device is filled by fewer parts; a reduction of few k-steps keeps at least 8 per part.
  EXPECT_EQ(conv_wgmma_plan({2, 16, 16, 1280, 1280, 3, 3, 1, 1}, ConvWgmmaDevice{16, {}}).splits, 1);
  EXPECT_EQ(conv_wgmma_plan({2, 8, 8, 64, 64, 1, 1, 1, 0}, h100()).splits, 1);  // one k-step
  EXPECT_THROW((void)conv_wgmma_plan({2, 64, 64, 4, 320, 3, 3, 1, 1}, h100()), std::invalid_argument);
  // Never an empty part, never a narrow tile with a workspace split, and parts in the cluster in
  // one wave: for every result.
  for (int c = 64; c <= 2560; c += 64) {
    const ConvDims d{2, 8, 8, c, 1280, 3, 3, 1, 1};
    const ConvWgmmaPlan plan = conv_wgmma_plan(d, h100());
    const int steps = static_cast<int>(d.gemm_k() / kWgmmaChannelSlice);
    const int chunk = (steps + plan.splits - 1) / plan.splits;
    EXPECT_EQ((steps + chunk - 1) / chunk, plan.splits) << d.str();
    const int pixel_tiles = 128 / plan.pixels;  // 8 x 8 x 2 = 128 output pixels
    const int ctas = pixel_tiles * ((1280 + plan.width - 1) / plan.width) * plan.splits;
    EXPECT_LE(ctas, 132) << "one wave at most";
    if (plan.reduction == kWorkspace) {
      EXPECT_TRUE(plan.splits == 1 || plan.width >= 160) << d.str();
    } else {
      EXPECT_LE(ctas, h100().cluster_ctas[static_cast<size_t>(plan.splits)]) << d.str();
    }
    if (plan.pixels == kWgmmaSmallTilePixels) {
      EXPECT_LE(steps, 48) << "64-pixel tiles only for a short reduction";
    }
  }
}

TEST(ConvWgmmaGeometry, CheckShapeKeepsTheReductionAndTiles) {
  for (const ConvDims& bench : {ConvDims{2, 64, 64, 320, 320, 3, 3, 1, 1}, ConvDims{2, 64, 64, 320, 320, 3, 3, 2, 1},
                                ConvDims{2, 32, 32, 960, 640, 1, 1, 1, 0}, ConvDims{2, 8, 8, 1280, 1280, 3, 3, 1, 1}}) {
    SCOPED_TRACE(bench.str());
    const ConvDims c = conv_wgmma_check_dims(bench);
    EXPECT_EQ(c.gemm_k(), bench.gemm_k());
    EXPECT_EQ(c.stride, bench.stride);
    EXPECT_EQ(c.pad, bench.pad);
    EXPECT_EQ(c.P(), 8);
    EXPECT_EQ(c.Q(), 16);
    EXPECT_EQ(c.N, 2);
    EXPECT_EQ(c.K, 200);
    EXPECT_EQ(conv_wgmma_unsupported(c), "");
  }
}

// Output pixel m reads input pixel m only in a 1x1 at stride 1 without padding: then A is the input matrix.
TEST(ConvWgmmaGeometry, ReadsAsAMatrixOnlyWherePixelsMapOneToOne) {
  EXPECT_EQ(conv_wgmma_a_source({2, 32, 32, 960, 640, 1, 1, 1, 0}), ConvWgmmaASource::Matrix);
  const ConvDims check = conv_wgmma_check_dims({2, 32, 32, 960, 640, 1, 1, 1, 0});  // runs the same kernels
  EXPECT_EQ(conv_wgmma_a_source(check), ConvWgmmaASource::Matrix);
  EXPECT_EQ(conv_wgmma_a_source({2, 32, 32, 960, 640, 1, 1, 2, 0}), ConvWgmmaASource::Im2col);  // every other pixel
  EXPECT_EQ(conv_wgmma_a_source({2, 32, 32, 960, 640, 1, 1, 1, 1}), ConvWgmmaASource::Im2col);  // a zero border
  EXPECT_EQ(conv_wgmma_a_source({2, 64, 64, 320, 320, 3, 3, 1, 1}), ConvWgmmaASource::Im2col);  // nine taps
  EXPECT_EQ(conv_wgmma_a_source({2, 64, 64, 320, 320, 1, 3, 1, 0}), ConvWgmmaASource::Im2col);
}

}  // namespace
}  // namespace archbench::kernels::conv
