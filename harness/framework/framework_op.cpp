#include "harness/framework/framework_op.hpp"

#include <array>
#include <regex>
#include <string_view>

namespace archbench::framework {
namespace {

struct OpRule {
  const char* family;
  const char* name;   // the registry operator
  const char* op;     // the probe's op
  Layout layout;
};

// Which registry operators have a framework equivalent, one row each.
constexpr std::array kRules{
    OpRule{"attention", "sdpa_cudnn", "sdpa", Layout::Default},
    OpRule{"matmul", "gemm_cublas", "matmul", Layout::Default},
    OpRule{"conv", "conv_cudnn_nchw", "conv2d", Layout::Default},
    OpRule{"conv", "conv_cudnn_nhwc", "conv2d", Layout::ChannelsLast},
    OpRule{"norm", "groupnorm", "group_norm", Layout::Default},
    OpRule{"norm", "groupnorm_nhwc", "group_norm", Layout::ChannelsLast},
    OpRule{"norm", "layernorm_noaffine", "layer_norm", Layout::Default},
    OpRule{"norm", "rmsnorm128", "rms_norm", Layout::Default},
    OpRule{"elementwise", "gelu_tanh", "gelu", Layout::Default},
    OpRule{"elementwise", "silu", "silu", Layout::Default},
};

}  // namespace

std::optional<std::map<std::string, int>> parse_shape_dims(const std::string& shape) {
  static const std::regex named(R"(^([A-Za-z]+)(\d+)$)");    // "Nq4096", "s1"
  static const std::regex filter(R"(^(\d+)x(\d+)$)");        // "3x3"
  std::map<std::string, int> dims;
  size_t at = 0;
  while (at <= shape.size()) {
    const size_t end = std::min(shape.find('_', at), shape.size());
    const std::string part = shape.substr(at, end - at);
    std::smatch m;
    if (std::regex_match(part, m, named) && m[2].length() <= 7) {
      dims[m[1]] = std::stoi(m[2]);
    } else if (std::regex_match(part, m, filter) && m[1] == m[2] && m[1].length() <= 2) {
      dims["R"] = std::stoi(m[1]);
    } else {
      return std::nullopt;
    }
    at = end + 1;
  }
  if (dims.empty()) return std::nullopt;
  return dims;
}

std::optional<FrameworkOp> framework_op_for(const OperatorSpec& spec, const std::string& operator_id) {
  for (const auto& rule : kRules) {
    if (spec.family != rule.family || spec.name != rule.name) continue;
    // FP8: the matmul only, which the probe runs as torch._scaled_mm with per-tensor scales;
    // PyTorch's SDPA and convolution have no FP8 path.
    if (is_fp8(spec.dtype) && std::string_view(rule.op) != "matmul") return std::nullopt;
    auto dims = parse_shape_dims(spec.shape);
    if (!dims) return std::nullopt;
    FrameworkOp f;
    f.op = rule.op;
    f.dtype = spec.dtype;
    f.layout = rule.layout;
    f.dims = std::move(*dims);
    f.twin = operator_id;
    f.model = spec.model;
    f.id = "framework/" + f.op + "/" + std::string(dtype_name(spec.dtype)) + "/" + spec.shape +
           (rule.layout == Layout::ChannelsLast ? "_cl" : "");
    return f;
  }
  return std::nullopt;
}

std::vector<FrameworkOp> framework_ops(const std::vector<const Operator*>& registry) {
  std::vector<FrameworkOp> out;
  for (const auto* op : registry) {
    if (auto f = framework_op_for(op->spec(), op->id())) out.push_back(std::move(*f));
  }
  return out;
}

}  // namespace archbench::framework
