// DType names: the written one per dtype, and the other spellings --dtype accepts; the FP8 formats.
#include <gtest/gtest.h>

#include <cmath>

#include "harness/ops/dtype.hpp"
#include "harness/ops/tensor.hpp"

namespace archbench {
namespace {

TEST(DType, ParsesItsNamesAndTheOtherSpellings) {
  for (DType d : values_of(kDTypes)) EXPECT_EQ(parse_dtype(dtype_name(d)), d) << dtype_name(d);
  for (const char* s : {"fp32", "float32", "float"}) EXPECT_EQ(parse_dtype(s), DType::F32) << s;
  for (const char* s : {"fp16", "float16", "half"}) EXPECT_EQ(parse_dtype(s), DType::F16) << s;
  EXPECT_EQ(parse_dtype("bfloat16"), DType::BF16);
  for (const char* s : {"fp8_e4m3", "float8_e4m3fn"}) EXPECT_EQ(parse_dtype(s), DType::E4M3) << s;
  for (const char* s : {"fp8_e5m2", "float8_e5m2"}) EXPECT_EQ(parse_dtype(s), DType::E5M2) << s;
  // "fp8" names two formats; e5m2's PyTorch name has no "fn" (it has infinities).
  for (const char* s : {"", "F32", "fp8", "float8", "float8_e5m2fn", "tf16", "double"}) {
    EXPECT_FALSE(parse_dtype(s).has_value()) << s;
  }
}

TEST(DType, WritesOneNamePerDtype) {
  EXPECT_EQ(dtype_name(DType::F32), "f32");
  EXPECT_EQ(dtype_name(DType::TF32), "tf32");
  EXPECT_EQ(dtype_name(DType::F16), "f16");
  EXPECT_EQ(dtype_name(DType::BF16), "bf16");
  EXPECT_EQ(dtype_name(DType::E4M3), "e4m3");
  EXPECT_EQ(dtype_name(DType::E5M2), "e5m2");
}

// FP8 is stored in one byte and its results in bf16 (torch._scaled_mm's out_dtype).
TEST(DType, Fp8StorageAndResult) {
  EXPECT_EQ(storage_bytes(DType::E4M3), 1u);
  EXPECT_EQ(storage_dtype(DType::E4M3), DType::E4M3);
  EXPECT_EQ(result_dtype(DType::E4M3), DType::BF16);
  EXPECT_EQ(result_dtype(DType::TF32), DType::F32);
  EXPECT_EQ(result_dtype(DType::F16), DType::F16);
  EXPECT_EQ(storage_bytes(DType::E5M2), 1u);
  EXPECT_EQ(result_dtype(DType::E5M2), DType::BF16);
}

// An e5m2 operator multiplies e5m2 by e4m3 (Hopper's libraries have no e5m2 x e5m2); each format
// spans its own range.
TEST(DType, Fp8FormatsPairAndSpanTheirRanges) {
  EXPECT_TRUE(is_fp8(DType::E4M3) && is_fp8(DType::E5M2));
  EXPECT_FALSE(is_fp8(DType::BF16) || is_fp8(DType::F16) || is_fp8(DType::TF32));
  EXPECT_EQ(fp8_partner(DType::E5M2), DType::E4M3);
  EXPECT_EQ(fp8_partner(DType::E4M3), DType::E4M3);
  EXPECT_EQ(fp8_partner(DType::F16), DType::F16);
  EXPECT_EQ(fp8_max(DType::E4M3), 448.0);
  EXPECT_EQ(fp8_max(DType::E5M2), 57344.0);
  EXPECT_TRUE(low_precision(DType::E5M2));
  EXPECT_EQ(tolerance(DType::E5M2), tolerance(DType::E4M3));
}

// The mantissa bits the FP8 attention tolerance is derived from are those the host conversion
// keeps: 1 + 2^-m is exact, 1 + 2^-(m+1) is a tie that rounds to even (1), and a rounding moves a
// value by at most 2^-(m+1) of itself.
TEST(DType, Fp8MantissaBitsAreThoseTheConversionKeeps) {
  EXPECT_EQ(fp8_mantissa_bits(DType::E4M3), 3);
  EXPECT_EQ(fp8_mantissa_bits(DType::E5M2), 2);
  for (DType d : {DType::E4M3, DType::E5M2}) {
    const double ulp = std::ldexp(1.0, -fp8_mantissa_bits(d));
    EXPECT_EQ(round_to_storage(d, 1.0 + ulp), 1.0 + ulp) << dtype_name(d);
    EXPECT_EQ(round_to_storage(d, 1.0 + ulp / 2), 1.0) << dtype_name(d);
    for (double v = 0.5; v < fp8_max(d) / 2; v *= 1.37) {
      EXPECT_LE(std::abs(round_to_storage(d, v) - v), v * ulp / 2) << dtype_name(d) << " " << v;
    }
  }
}

}  // namespace
}  // namespace archbench
