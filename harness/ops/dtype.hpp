// Element types an operator computes in. tf32 is fp32 storage with TF32 tensor-core math. e4m3 is
// FP8 (OCP E4M3, "float8_e4m3fn" in PyTorch: no infinities, 448 the largest finite value) inputs
// with per-tensor scales, fp32 accumulation and a bf16 result, as torch._scaled_mm computes it.
// e5m2 is the other FP8 format (OCP E5M2, "float8_e5m2": infinities, 57344 the largest finite
// value, two mantissa bits), the one FP8 training keeps gradients in. As a matmul's type it is an
// e5m2 A times an e4m3 B: on Hopper neither cuBLASLt nor torch._scaled_mm multiplies two e5m2
// operands (fp8_partner). FP8 attention keeps Q, K, V and O in its format, e4m3 or e5m2, as cuDNN's
// FP8 attention does.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

enum class DType { F32, TF32, F16, BF16, E4M3, E5M2 };

// The names in operator ids, the run JSON and --dtype.
inline constexpr auto kDTypes = enum_names<DType>(
    {{DType::F32, "f32"}, {DType::TF32, "tf32"}, {DType::F16, "f16"}, {DType::BF16, "bf16"}, {DType::E4M3, "e4m3"},
     {DType::E5M2, "e5m2"}});

[[nodiscard]] constexpr std::string_view dtype_name(DType d) { return name_of(kDTypes, d); }
[[nodiscard]] std::optional<DType> parse_dtype(std::string_view s);  // also fp32/float32, fp16/half, ...
[[nodiscard]] size_t storage_bytes(DType d);
// What is in memory: tf32 math keeps f32 storage.
[[nodiscard]] inline DType storage_dtype(DType math) { return math == DType::TF32 ? DType::F32 : math; }
[[nodiscard]] constexpr bool is_fp8(DType d) { return d == DType::E4M3 || d == DType::E5M2; }
// The second operand's type where an FP8 matmul multiplies two tensors: e4m3 for both formats
// (an e5m2 matmul is e5m2 x e4m3, the mix Hopper's libraries take).
[[nodiscard]] constexpr DType fp8_partner(DType d) { return is_fp8(d) ? DType::E4M3 : d; }
// The largest finite value of an FP8 format (what the random inputs span).
[[nodiscard]] constexpr double fp8_max(DType d) { return d == DType::E5M2 ? 57344.0 : 448.0; }
// The stored mantissa bits of an FP8 format: a rounding to it moves a normal value by at most
// 2^-(bits + 1) of itself.
[[nodiscard]] constexpr int fp8_mantissa_bits(DType d) { return d == DType::E5M2 ? 2 : 3; }
// What a result is stored in: the inputs' storage, but bf16 for FP8 inputs (FP8 results would
// lose what the fp32 accumulation kept; torch._scaled_mm's out_dtype in diffusion pipelines).
[[nodiscard]] inline DType result_dtype(DType math) { return is_fp8(math) ? DType::BF16 : storage_dtype(math); }
// Inputs rounded below fp32's precision (f16, bf16, FP8): the types whose own kernels are held to
// their library twin's error on the same inputs (the error oracle, harness/run/error_oracle).
[[nodiscard]] constexpr bool low_precision(DType d) { return d == DType::F16 || d == DType::BF16 || is_fp8(d); }
// Normwise relative-error bound against the float64 reference (docs/measurement.md,
// "Correctness").
[[nodiscard]] double tolerance(DType d);

}  // namespace archbench
