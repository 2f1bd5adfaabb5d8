// The framework ops `archbench framework` runs in the user's PyTorch, made from archbench's own
// registry (no second shape table): each library twin of the registry (cuBLAS, cuDNN conv and
// SDPA) and each norm and activation with a framework equivalent becomes one framework op at the
// same shape and dtype, so that the framework's kernel and archbench's twin can be set side by side.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/ops/dtype.hpp"
#include "harness/ops/operator.hpp"

namespace archbench::framework {

enum class Layout { Default, ChannelsLast };

struct FrameworkOp {
  std::string id;      // "framework/sdpa/f16/B2_H10_Nq4096_Nk4096_D64"; "_cl" ends a channels_last layout
  std::string op;      // what the probe builds: sdpa, matmul, conv2d, group_norm, layer_norm, rms_norm, gelu, silu
  DType dtype = DType::F32;
  Layout layout = Layout::Default;
  std::map<std::string, int> dims;  // "B" -> 2, "Nq" -> 4096, "R" -> 3 (a 3x3 filter), "s" -> 1
  std::string twin;    // the registry operator at the same shape: "attention/sdpa_cudnn/f16/B2_H10_..."
  std::string model;   // where the shape comes from
};

// "M8192_N960_K320" -> {M: 8192, N: 960, K: 320}; "B2_C320_H64_W64_K320_3x3_s1" -> {..., R: 3, s: 1}.
// nullopt for a shape with a part it cannot read.
[[nodiscard]] std::optional<std::map<std::string, int>> parse_shape_dims(const std::string& shape);

// The framework op for a registry operator, nullopt for one without a framework equivalent (an
// own kernel: its library twin stands for the shape).
[[nodiscard]] std::optional<FrameworkOp> framework_op_for(const OperatorSpec& spec, const std::string& operator_id);

// Every framework op of the registry, in registry order.
[[nodiscard]] std::vector<FrameworkOp> framework_ops(const std::vector<const Operator*>& registry);

}  // namespace archbench::framework
