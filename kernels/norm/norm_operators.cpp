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

// LayerNorm over rows of `cols` elements (with gamma and beta when affine).
SimpleShape layernorm_shape(DType d, bool affine, size_t rows, int cols, float eps) {
  std::vector<TensorShape> inputs{{d, rows * cols}};
  if (affine) inputs.insert(inputs.end(), {{d, static_cast<size_t>(cols), 0.5, 1.5}, {d, static_cast<size_t>(cols), -0.5, 0.5}});
  return {"M" + std::to_string(rows) + "_N" + std::to_string(cols), inputs, {d, rows * cols},
          [d, affine, rows, cols, eps](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
            launch_layernorm(d, in[0].buffer.get(), affine ? in[1].buffer.get() : nullptr,
                             affine ? in[2].buffer.get() : nullptr, out.buffer.get(), rows, cols, eps, s);
          },
          [affine, rows, cols, eps](const Inputs& in) {
            return affine ? layernorm_reference(in[0], in[1], in[2], rows, static_cast<size_t>(cols), eps)
                          : layernorm_reference(in[0], {}, {}, rows, static_cast<size_t>(cols), eps);
          }};
}

void add_layernorm(Registry& r, DType d, bool affine) {
  // SD1.5 transformer LayerNorm (affine, eps 1e-5) at L0, checked at that shape; Flux's LayerNorm
  // (no affine, eps 1e-6), checked on 768 of its 4608 rows (whole rows: the reduction is kept).
  const size_t rows = affine ? 8192 : 4608;
  const int cols = affine ? 320 : 3072;
  const float eps = affine ? 1e-5f : 1e-6f;
  const char* name = affine ? "layernorm" : "layernorm_noaffine";
  const SimpleShape bench = layernorm_shape(d, affine, rows, cols, eps);
  r.add(std::make_unique<SimpleOperator>(
      spec(name, d, bench.name, affine ? "SD1.5 transformer" : "Flux block", static_cast<double>(rows * cols)), bench,
      affine ? bench : layernorm_shape(d, affine, 768, cols, eps),
      std::vector<KernelRef>{{name, layernorm_kernel(d, affine, cols)}}));
}

// RMSNorm over rows of 128 (one head of q or k), [1, heads, tokens, 128].
SimpleShape rmsnorm128_shape(DType d, int heads, int tokens) {
  const size_t rows = static_cast<size_t>(heads) * tokens;
  return {"B1_H" + std::to_string(heads) + "_N" + std::to_string(tokens) + "_D128",
          {{d, rows * 128}, {d, 128, 0.5, 1.5}}, {d, rows * 128},
          [d, rows](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
            launch_rmsnorm128(d, in[0].buffer.get(), in[1].buffer.get(), out.buffer.get(), rows, 1e-6f, s);
          },
          [rows](const Inputs& in) { return rmsnorm_reference(in[0], in[1], rows, 128, 1e-6); }};
}

void add_rmsnorm(Registry& r, DType d) {
  // Flux QK-norm on [1, 24 heads, 4608 tokens, 128]; checked on 4 of the heads.
  const SimpleShape bench = rmsnorm128_shape(d, 24, 4608);
  r.add(std::make_unique<SimpleOperator>(spec("rmsnorm128", d, bench.name, "Flux QK-norm", 24.0 * 4608 * 128), bench,
                                         rmsnorm128_shape(d, 4, 4608),
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
