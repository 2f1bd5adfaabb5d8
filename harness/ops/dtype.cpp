#include "harness/ops/dtype.hpp"

#include <array>

namespace archbench {
namespace {

// Other spellings --dtype accepts, as other frameworks name the types; never written.
constexpr std::array<EnumName<DType>, 7> kDTypeAliases = {{
    {DType::F32, "fp32"}, {DType::F32, "float32"}, {DType::F32, "float"},
    {DType::F16, "fp16"}, {DType::F16, "float16"}, {DType::F16, "half"},
    {DType::BF16, "bfloat16"},
}};

}  // namespace

std::optional<DType> parse_dtype(std::string_view s) {
  if (const auto d = parse_name(kDTypes, s)) return d;
  return parse_name(kDTypeAliases, s);
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
