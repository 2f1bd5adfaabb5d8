// Attention shapes: names, FLOP and byte formulas (docs/reference/workload.md, "FLOP and byte formulas"), the
// check-scale cut.
#include <gtest/gtest.h>

#include "kernels/attention/attention_dims.hpp"

namespace archbench::kernels::attention {
namespace {

TEST(AttentionDims, ShapeString) {
  EXPECT_EQ((AttentionDims{2, 8, 4096, 77, 40}.str()), "B2_H8_Nq4096_Nk77_D40");
  EXPECT_EQ((AttentionDims{1, 24, 4608, 4608, 128}.str()), "B1_H24_Nq4608_Nk4608_D128");
}

TEST(AttentionDims, FlopsAndBytesMatchTheWorkloadTable) {
  const AttentionDims sd15{2, 8, 4096, 4096, 40};  // row 17: 43.0 GFLOP, 21.0 MB in fp16
  EXPECT_DOUBLE_EQ(sd15.flops(), 4.0 * 2 * 8 * 4096 * 4096 * 40);
  EXPECT_NEAR(sd15.flops() / 1e9, 43.0, 0.06);  // 42.95, printed as 43.0
  EXPECT_NEAR(sd15.bytes(DType::F16) / 1e6, 21.0, 0.05);
  const AttentionDims cross{2, 8, 4096, 77, 40};  // row 18: 0.81 GFLOP, 10.7 MB
  EXPECT_NEAR(cross.flops() / 1e9, 0.81, 0.005);
  EXPECT_NEAR(cross.bytes(DType::BF16) / 1e6, 10.7, 0.05);
  EXPECT_DOUBLE_EQ(cross.bytes(DType::BF16), 2.0 * 2 * 8 * 40 * (2 * 4096 + 2 * 77));
  const AttentionDims flux{1, 24, 4608, 4608, 128};  // row 21: 261 GFLOP, 113 MB
  EXPECT_NEAR(flux.flops() / 1e9, 261.0, 0.5);
  EXPECT_NEAR(flux.bytes(DType::F16) / 1e6, 113.0, 0.5);
  // f32 (and tf32, which keeps f32 storage) doubles the bytes, not the FLOPs.
  EXPECT_DOUBLE_EQ(flux.bytes(DType::F32), 2 * flux.bytes(DType::F16));
  EXPECT_DOUBLE_EQ(flux.bytes(DType::TF32), flux.bytes(DType::F32));
}

TEST(AttentionDims, CheckScaleKeepsHeadDimAndSoftmaxLength) {
  const AttentionDims sd3{2, 24, 4429, 4429, 64};
  const AttentionDims c = sd3.check_dims();
  EXPECT_EQ(c.D, 64);
  EXPECT_EQ(c.Nk, 4429);  // the reduction length and its tail (4429 = 69·64 + 13)
  EXPECT_EQ(c.B, 2);
  EXPECT_EQ(c.H, 2);
  EXPECT_EQ(c.Nq, 200);
  EXPECT_NE(c.Nq % 64, 0);  // a partial query tile for every tile height the kernels use
  EXPECT_NE(c.Nq % 32, 0);
  const AttentionDims cross{2, 8, 4096, 77, 40};
  EXPECT_EQ(cross.check_dims().Nk, 77);
  const AttentionDims small{1, 1, 100, 50, 80};
  EXPECT_EQ(small.check_dims().str(), small.str());  // never grown
}

}  // namespace
}  // namespace archbench::kernels::attention
