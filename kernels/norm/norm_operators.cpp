#include "kernels/norm/norm_operators.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/ops/simple_problem.hpp"
#include "kernels/norm/groupnorm_operator.hpp"
#include "kernels/norm/norm_kernels.hpp"
#include "kernels/norm/norm_reference.hpp"

namespace archbench::kernels::norm {
namespace {

using Inputs = std::vector<std::vector<double>>;

// Ideal single pass: read x once, write y once (the affine parameters are negligible).
OperatorSpec spec(const char* name, DType d, std::string shape, const char* model, double numel) {
  return memory_bound_spec("norm", name, d, std::move(shape), model, 2.0 * static_cast<double>(storage_bytes(d)) * numel);
}

void add_layernorm(Registry& r, DType d, bool affine) {
  // SD1.5 transformer LayerNorm (affine, eps 1e-5) at L0; Flux's LayerNorm (no affine, eps 1e-6).
  const size_t rows = affine ? 8192 : 4608;
  const int cols = affine ? 320 : 3072;
  const float eps = affine ? 1e-5f : 1e-6f;
  std::vector<TensorShape> inputs{{d, rows * cols}};
  if (affine) inputs.insert(inputs.end(), {{d, static_cast<size_t>(cols), 0.5, 1.5}, {d, static_cast<size_t>(cols), -0.5, 0.5}});
  r.add(std::make_unique<SimpleOperator>(
      spec(affine ? "layernorm" : "layernorm_noaffine", d, "M" + std::to_string(rows) + "_N" + std::to_string(cols),
           affine ? "SD1.5 transformer" : "Flux block", static_cast<double>(rows * cols)),
      inputs, TensorShape{d, rows * cols},
      [d, affine, rows, cols, eps](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
        launch_layernorm(d, in[0].buffer.get(), affine ? in[1].buffer.get() : nullptr, affine ? in[2].buffer.get() : nullptr,
                         out.buffer.get(), rows, cols, eps, s);
      },
      [affine, rows, cols, eps](const Inputs& in) {
        return affine ? layernorm_reference(in[0], in[1], in[2], rows, static_cast<size_t>(cols), eps)
                      : layernorm_reference(in[0], {}, {}, rows, static_cast<size_t>(cols), eps);
      },
      std::vector<KernelRef>{{affine ? "layernorm" : "layernorm_noaffine", layernorm_kernel(d, affine, cols)}}));
}

void add_rmsnorm(Registry& r, DType d) {
  const size_t rows = size_t{24} * 4608;  // Flux QK-norm: [1, 24 heads, 4608 tokens, 128]
  r.add(std::make_unique<SimpleOperator>(
      spec("rmsnorm128", d, "B1_H24_N4608_D128", "Flux QK-norm", static_cast<double>(rows * 128)),
      std::vector<TensorShape>{{d, rows * 128}, {d, 128, 0.5, 1.5}}, TensorShape{d, rows * 128},
      [d](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
        launch_rmsnorm128(d, in[0].buffer.get(), in[1].buffer.get(), out.buffer.get(), rows, 1e-6f, s);
      },
      [](const Inputs& in) { return rmsnorm_reference(in[0], in[1], rows, 128, 1e-6); },
      std::vector<KernelRef>{{"rmsnorm128", rmsnorm128_kernel(d)}}));
}

void add_groupnorm(Registry& r, DType d, GroupNormLayout layout, bool silu) {
  // SD1.5 ResBlock at L0: GroupNorm(32, eps 1e-6) on [2, 320, 64, 64], NCHW as PyTorch's default,
  // NHWC as channels_last and fused engines (TensorRT's / onnxruntime's NHWC GroupNorm) run it.
  const GroupNormShape shape{2, 320, 64 * 64, 32, layout, silu};
  const bool nhwc = layout == GroupNormLayout::NHWC;
  const std::string name = std::string(nhwc ? "groupnorm_nhwc" : "groupnorm") + (silu ? "_silu" : "");
  const size_t numel = static_cast<size_t>(shape.n) * shape.c * shape.hw;
  r.add(std::make_unique<GroupNormOperator>(
      spec(name.c_str(), d, nhwc ? "B2_H64_W64_C320_G32" : "B2_C320_H64_W64_G32", "SD1.5 ResBlock", static_cast<double>(numel)),
      shape, 1e-6f));
}

}  // namespace

void register_operators(Registry& r) {
  for (DType d : {DType::F32, DType::F16, DType::BF16}) {
    add_layernorm(r, d, true);
    add_layernorm(r, d, false);
    add_rmsnorm(r, d);
    add_groupnorm(r, d, GroupNormLayout::NCHW, false);
    add_groupnorm(r, d, GroupNormLayout::NCHW, true);
    add_groupnorm(r, d, GroupNormLayout::NHWC, false);
    add_groupnorm(r, d, GroupNormLayout::NHWC, true);
  }
}

}  // namespace archbench::kernels::norm
