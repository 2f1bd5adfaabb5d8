// Element types an operator computes in. tf32 is fp32 storage with TF32 tensor-core math. e4m3 is
// FP8 (OCP E4M3, "float8_e4m3fn" in PyTorch: no infinities, 448 the largest finite value) inputs
// with per-tensor scales, fp32 accumulation and a bf16 result, as torch._scaled_mm computes it.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

enum class DType { F32, TF32, F16, BF16, E4M3 };

// The names in operator ids, the run JSON and --dtype.
inline constexpr auto kDTypes = enum_names<DType>(
    {{DType::F32, "f32"}, {DType::TF32, "tf32"}, {DType::F16, "f16"}, {DType::BF16, "bf16"}, {DType::E4M3, "e4m3"}});

[[nodiscard]] constexpr std::string_view dtype_name(DType d) { return name_of(kDTypes, d); }
[[nodiscard]] std::optional<DType> parse_dtype(std::string_view s);  // also fp32/float32, fp16/half, ...
[[nodiscard]] size_t storage_bytes(DType d);
// What is in memory: tf32 math keeps f32 storage.
[[nodiscard]] inline DType storage_dtype(DType math) { return math == DType::TF32 ? DType::F32 : math; }
// What a result is stored in: the inputs' storage, but bf16 for FP8 inputs (FP8 results would
// lose what the fp32 accumulation kept; torch._scaled_mm's out_dtype in diffusion pipelines).
[[nodiscard]] inline DType result_dtype(DType math) { return math == DType::E4M3 ? DType::BF16 : storage_dtype(math); }
// Inputs rounded below fp32's precision (f16, bf16, FP8): the types whose own kernels are held to
// their library twin's error on the same inputs (the error oracle, harness/run/error_oracle).
[[nodiscard]] constexpr bool low_precision(DType d) { return d == DType::F16 || d == DType::BF16 || d == DType::E4M3; }
// Normwise relative-error bound against the float64 reference (docs/measurement.md,
// "Correctness").
[[nodiscard]] double tolerance(DType d);

}  // namespace archbench
