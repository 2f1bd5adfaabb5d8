#include "harness/ops/dtype.hpp"

#include <array>

namespace archbench {
namespace {

// Other spellings --dtype accepts, as other frameworks name the types; never written.
constexpr std::array<EnumName<DType>, 11> kDTypeAliases = {{
    {DType::F32, "fp32"}, {DType::F32, "float32"}, {DType::F32, "float"},
    {DType::F16, "fp16"}, {DType::F16, "float16"}, {DType::F16, "half"},
    {DType::BF16, "bfloat16"},
    // Not "fp8": it names two formats, and a --dtype that may mean two things is refused.
    {DType::E4M3, "fp8_e4m3"}, {DType::E4M3, "float8_e4m3fn"},
    {DType::E5M2, "fp8_e5m2"}, {DType::E5M2, "float8_e5m2"},
}};

}  // namespace

std::optional<DType> parse_dtype(std::string_view s) {
  if (const auto d = parse_name(kDTypes, s)) return d;
  return parse_name(kDTypeAliases, s);
}

size_t storage_bytes(DType d) {
  switch (d) {
    case DType::F16:
    case DType::BF16: return 2;
    case DType::E4M3:
    case DType::E5M2: return 1;
    case DType::F32:
    case DType::TF32: return 4;
  }
  return 4;
}

double tolerance(DType d) {
  switch (d) {
    case DType::F32: return 1e-5;   // fp32 FMA accumulation over K <= 4096 stays far below this
    case DType::TF32: return 5e-3;  // 10-bit mantissa inputs
    case DType::F16:
    case DType::BF16: return 2e-2;  // output rounding dominates (bf16: 2^-8)
    // The inputs are exact (the reference reads the dequantised FP8 values): the bf16 result's
    // rounding (2^-9 relative) and Hopper's FP8 tensor-core accumulation, which keeps fewer bits
    // than fp32 (docs/measurement.md, "Correctness", derives the bound and gives what was measured).
    case DType::E4M3:
    case DType::E5M2: return 2e-2;
  }
  return 0;
}

}  // namespace archbench
