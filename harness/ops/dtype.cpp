#include "harness/ops/dtype.hpp"

namespace archbench {

std::string_view dtype_name(DType d) {
  switch (d) {
    case DType::F32: return "f32";
    case DType::TF32: return "tf32";
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view s) {
  if (s == "f32" || s == "fp32" || s == "float32" || s == "float") return DType::F32;
  if (s == "tf32") return DType::TF32;
  if (s == "f16" || s == "fp16" || s == "float16" || s == "half") return DType::F16;
  if (s == "bf16" || s == "bfloat16") return DType::BF16;
  return std::nullopt;
}

size_t storage_bytes(DType d) { return d == DType::F16 || d == DType::BF16 ? 2 : 4; }

double tolerance(DType d) {
  switch (d) {
    case DType::F32: return 1e-5;   // fp32 FMA accumulation over K <= 4096 stays far below this
    case DType::TF32: return 5e-3;  // 10-bit mantissa inputs
    case DType::F16:
    case DType::BF16: return 2e-2;  // output rounding dominates (bf16: 2^-8)
  }
  return 0;
}

}  // namespace archbench
