// Convolution geometry: output sizes, shape strings, FLOP and byte counts, the check shape.
#include <gtest/gtest.h>

#include "kernels/conv/conv_dims.hpp"

namespace archbench::kernels::conv {
namespace {

// {N, H, W, C, K, R, S, stride, pad}
const ConvDims kL0{2, 64, 64, 320, 320, 3, 3, 1, 1};
const ConvDims kDownsample{2, 64, 64, 320, 320, 3, 3, 2, 1};
const ConvDims kSkip1x1{2, 32, 32, 960, 640, 1, 1, 1, 0};
const ConvDims kConvIn{2, 64, 64, 4, 320, 3, 3, 1, 1};
const ConvDims kMid{2, 8, 8, 1280, 1280, 3, 3, 1, 1};

TEST(ConvDims, OutputSizes) {
  EXPECT_EQ(kL0.P(), 64);
  EXPECT_EQ(kL0.Q(), 64);
  EXPECT_EQ(kDownsample.P(), 32);
  EXPECT_EQ(kDownsample.Q(), 32);
  EXPECT_EQ(kSkip1x1.P(), 32);
  EXPECT_EQ((ConvDims{1, 7, 9, 8, 8, 3, 3, 2, 1}.P()), 4);  // (7 + 2 - 3) / 2 + 1
  EXPECT_EQ((ConvDims{1, 7, 9, 8, 8, 3, 3, 2, 1}.Q()), 5);  // (9 + 2 - 3) / 2 + 1
  EXPECT_EQ((ConvDims{1, 5, 5, 8, 8, 3, 3, 1, 0}.P()), 3);  // no padding shrinks the output
}

TEST(ConvDims, GemmView) {
  EXPECT_EQ(kL0.gemm_m(), 2 * 64 * 64);
  EXPECT_EQ(kL0.gemm_k(), 9 * 320);
  EXPECT_EQ(kDownsample.gemm_m(), 2 * 32 * 32);
  EXPECT_EQ(kConvIn.gemm_k(), 36);
  EXPECT_EQ(kSkip1x1.input_numel(), size_t{2} * 32 * 32 * 960);
  EXPECT_EQ(kSkip1x1.filter_numel(), size_t{640} * 960);
  EXPECT_EQ(kSkip1x1.output_numel(), size_t{2} * 32 * 32 * 640);
}

TEST(ConvDims, ShapeStrings) {
  EXPECT_EQ(kL0.str(), "B2_C320_H64_W64_K320_3x3_s1");
  EXPECT_EQ(kDownsample.str(), "B2_C320_H64_W64_K320_3x3_s2");
  EXPECT_EQ(kSkip1x1.str(), "B2_C960_H32_W32_K640_1x1_s1");
  EXPECT_EQ(kConvIn.str(), "B2_C4_H64_W64_K320_3x3_s1");
  // Padding other than (R-1)/2 is spelled out.
  EXPECT_EQ((ConvDims{1, 8, 8, 16, 16, 3, 3, 1, 0}.str()), "B1_C16_H8_W8_K16_3x3_s1_p0");
  EXPECT_EQ((ConvDims{1, 8, 8, 16, 16, 1, 1, 1, 1}.str()), "B1_C16_H8_W8_K16_1x1_s1_p1");
}

TEST(ConvDims, FlopsAndBytesFollowTheWorkloadFormulas) {
  // docs/reference/workload.md, "FLOP and byte formulas": conv FLOP = 2*B*Co*Ho*Wo*Ci*k^2, bytes = e*(input +
  // filter + output).
  EXPECT_DOUBLE_EQ(kL0.flops(), 2.0 * 2 * 320 * 64 * 64 * 320 * 9);
  EXPECT_DOUBLE_EQ(kL0.bytes(DType::F16), 2.0 * (2.0 * 320 * 64 * 64 + 320.0 * 320 * 9 + 2.0 * 320 * 64 * 64));
  EXPECT_DOUBLE_EQ(kL0.bytes(DType::F32), 2 * kL0.bytes(DType::F16));
  EXPECT_DOUBLE_EQ(kL0.bytes(DType::TF32), kL0.bytes(DType::F32));  // tf32 keeps f32 storage
  EXPECT_DOUBLE_EQ(kL0.bytes(DType::BF16), kL0.bytes(DType::F16));
  EXPECT_DOUBLE_EQ(kDownsample.flops(), 2.0 * 2 * 320 * 32 * 32 * 320 * 9);
}

TEST(ConvDims, CheckShapeKeepsTheReduction) {
  for (const ConvDims& d : {kL0, kDownsample, kSkip1x1, kConvIn, kMid}) {
    const ConvDims c = d.check_dims();
    SCOPED_TRACE(d.str());
    EXPECT_EQ(c.C, d.C);
    EXPECT_EQ(c.R, d.R);
    EXPECT_EQ(c.S, d.S);
    EXPECT_EQ(c.stride, d.stride);
    EXPECT_EQ(c.pad, d.pad);
    EXPECT_EQ(c.gemm_k(), d.gemm_k());
    EXPECT_TRUE(c.valid());
    EXPECT_LE(c.N, 2);
    EXPECT_LE(c.P(), 10);
    EXPECT_LE(c.Q(), 13);
    EXPECT_LE(c.K, 200);
  }
  // Large images shrink to exactly 10 x 13 outputs, stride 1 or 2; K to 200.
  EXPECT_EQ(kL0.check_dims().str(), "B2_C320_H10_W13_K200_3x3_s1");
  EXPECT_EQ(kDownsample.check_dims().str(), "B2_C320_H19_W25_K200_3x3_s2");
  EXPECT_EQ(kDownsample.check_dims().P(), 10);
  EXPECT_EQ(kDownsample.check_dims().Q(), 13);
  EXPECT_EQ(kSkip1x1.check_dims().str(), "B2_C960_H10_W13_K200_1x1_s1");
  // 260 GEMM rows: two full 128-row tiles and a ragged third.
  EXPECT_EQ(kL0.check_dims().gemm_m(), 260);
  // Small images and channel counts stay as they are.
  EXPECT_EQ(kMid.check_dims().str(), "B2_C1280_H8_W8_K200_3x3_s1");
  EXPECT_EQ((ConvDims{1, 4, 4, 8, 16, 3, 3, 1, 1}.check_dims().str()), "B1_C8_H4_W4_K16_3x3_s1");
}

TEST(ConvDims, Validity) {
  EXPECT_TRUE(kL0.valid());
  EXPECT_FALSE((ConvDims{0, 8, 8, 8, 8, 3, 3, 1, 1}.valid()));
  EXPECT_FALSE((ConvDims{1, 8, 8, 8, 8, 3, 3, 0, 1}.valid()));
  EXPECT_FALSE((ConvDims{1, 8, 8, 8, 8, 3, 3, 1, -1}.valid()));
  EXPECT_FALSE((ConvDims{1, 2, 8, 8, 8, 3, 3, 1, 0}.valid()));  // filter taller than the padded input
  EXPECT_TRUE((ConvDims{1, 1, 1, 8, 8, 3, 3, 1, 1}.valid()));   // 1x1 image, all taps but the centre on padding
}

}  // namespace
}  // namespace archbench::kernels::conv
