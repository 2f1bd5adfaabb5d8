// The FP8 attention problem's scales and tolerance, per format (attention_problem.hpp): the GPU
// runs it (suites/ops: ops.attention.e4m3, ops.attention.e5m2); what needs no GPU is here.
#include <gtest/gtest.h>

#include <cmath>

#include "harness/ops/tensor.hpp"
#include "kernels/attention/attention_problem.hpp"

namespace archbench::kernels::attention {
namespace {

// The stored extremes dequantise to the 16-bit problem's ranges, and P = 1 and |O| = 1 (the
// largest a softmax weight and a convex combination of V can be) store as the format's largest
// finite value: nothing saturates and nothing overflows to e5m2's infinity.
TEST(AttentionProblem, Fp8ScalesSpanEachFormatsRange) {
  for (const DType format : {DType::E4M3, DType::E5M2}) {
    const Fp8AttentionScales s = fp8_attention_scales(format);
    const double top = round_to_storage(format, fp8_max(format));
    EXPECT_EQ(top, fp8_max(format)) << dtype_name(format);
    EXPECT_NEAR(top * s.descale_q, kQueryRange, 1e-6) << dtype_name(format);
    EXPECT_NEAR(top * s.descale_kv, kKeyValueRange, 1e-6) << dtype_name(format);
    EXPECT_EQ(s.scale_p, static_cast<float>(fp8_max(format))) << dtype_name(format);
    EXPECT_EQ(s.scale_o, static_cast<float>(fp8_max(format))) << dtype_name(format);
    EXPECT_EQ(round_to_storage(format, 1.0 * s.scale_o), fp8_max(format)) << dtype_name(format);
    EXPECT_TRUE(std::isfinite(round_to_storage(format, -1.0 * s.scale_o))) << dtype_name(format);
    // No power of two, so a scale dropped or applied twice cannot hide in an exponent.
    for (const float scale : {s.descale_q, s.descale_kv, s.scale_p, s.scale_o}) {
      int exponent = 0;
      EXPECT_NE(std::frexp(static_cast<double>(scale), &exponent), 0.5) << dtype_name(format) << " " << scale;
    }
  }
}

// Two roundings to the format (P and O), each at most 2^-(m+1): e4m3's bound as documented, and
// e5m2's twice it for its one mantissa bit less.
TEST(AttentionProblem, Fp8ToleranceIsTwoRoundingsOfTheFormat) {
  EXPECT_EQ(fp8_attention_tolerance(DType::E4M3), 0.125);
  EXPECT_EQ(fp8_attention_tolerance(DType::E5M2), 0.25);
  for (const DType format : {DType::E4M3, DType::E5M2}) {
    EXPECT_EQ(fp8_attention_tolerance(format), 2 * std::ldexp(1.0, -(fp8_mantissa_bits(format) + 1)))
        << dtype_name(format);
    // Looser than the 16-bit bound, which holds the un-rounded result.
    EXPECT_GT(fp8_attention_tolerance(format), tolerance(DType::BF16)) << dtype_name(format);
  }
}

}  // namespace
}  // namespace archbench::kernels::attention
