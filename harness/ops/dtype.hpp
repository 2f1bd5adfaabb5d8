// Element types an operator computes in. tf32 is fp32 storage with TF32 tensor-core math.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

enum class DType { F32, TF32, F16, BF16 };

// The names in operator ids, the run JSON and --dtype.
inline constexpr auto kDTypes = enum_names<DType>(
    {{DType::F32, "f32"}, {DType::TF32, "tf32"}, {DType::F16, "f16"}, {DType::BF16, "bf16"}});

[[nodiscard]] constexpr std::string_view dtype_name(DType d) { return name_of(kDTypes, d); }
[[nodiscard]] std::optional<DType> parse_dtype(std::string_view s);  // also fp32/float32, fp16/half, ...
[[nodiscard]] size_t storage_bytes(DType d);
// What is in memory: tf32 math keeps f32 storage.
[[nodiscard]] inline DType storage_dtype(DType math) { return math == DType::TF32 ? DType::F32 : math; }
// Normwise relative-error bound against the float64 reference (docs/measurement.md,
// "Correctness").
[[nodiscard]] double tolerance(DType d);

}  // namespace archbench
