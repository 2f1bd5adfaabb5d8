#include "kernels/norm/norm_operators.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "harness/ops/simple_problem.hpp"
#include "kernels/norm/norm_kernels.hpp"

namespace archbench::kernels::norm {
namespace {

using Inputs = std::vector<std::vector<double>>;

// Ideal single pass: read x once, write y once.
OperatorSpec spec(const char* name, DType d, std::string shape, const char* model, double numel) {
  return memory_bound_spec("norm", name, d, std::move(shape), model, 2.0 * static_cast<double>(storage_bytes(d)) * numel);
}

// Normalizes x[begin + i * stride] for i < count in float64; returns mean and 1/sqrt(var + eps).
std::pair<double, double> stats(const std::vector<double>& x, size_t begin, size_t count, double eps) {
  double s = 0;
  for (size_t i = 0; i < count; ++i) s += x[begin + i];
  const double mean = s / static_cast<double>(count);
  double v = 0;
  for (size_t i = 0; i < count; ++i) v += (x[begin + i] - mean) * (x[begin + i] - mean);
  return {mean, 1.0 / std::sqrt(v / static_cast<double>(count) + eps)};
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
        std::vector<double> y(rows * cols);
        for (size_t i = 0; i < rows; ++i) {
          const auto [mean, rstd] = stats(in[0], i * cols, cols, eps);
          for (int c = 0; c < cols; ++c) {
            double v = (in[0][i * cols + c] - mean) * rstd;
            if (affine) v = v * in[1][c] + in[2][c];
            y[i * cols + c] = v;
          }
        }
        return y;
      },
      std::vector<KernelRef>{{affine ? "layernorm" : "layernorm_noaffine", layernorm_kernel(d, affine)}}));
}

void add_rmsnorm(Registry& r, DType d) {
  const size_t rows = size_t{24} * 4608;  // Flux QK-norm: [1, 24 heads, 4608 tokens, 128]
  r.add(std::make_unique<SimpleOperator>(
      spec("rmsnorm128", d, "B1_H24_N4608_D128", "Flux QK-norm", static_cast<double>(rows * 128)),
      std::vector<TensorShape>{{d, rows * 128}, {d, 128, 0.5, 1.5}}, TensorShape{d, rows * 128},
      [d](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
        launch_rmsnorm128(d, in[0].buffer.get(), in[1].buffer.get(), out.buffer.get(), rows, 1e-6f, s);
      },
      [](const Inputs& in) {
        std::vector<double> y(rows * 128);
        for (size_t i = 0; i < rows; ++i) {
          double ss = 0;
          for (int c = 0; c < 128; ++c) ss += in[0][i * 128 + c] * in[0][i * 128 + c];
          const double scale = 1.0 / std::sqrt(ss / 128.0 + 1e-6);
          for (int c = 0; c < 128; ++c) y[i * 128 + c] = in[0][i * 128 + c] * scale * in[1][c];
        }
        return y;
      },
      std::vector<KernelRef>{{"rmsnorm128", rmsnorm128_kernel(d)}}));
}

void add_groupnorm(Registry& r, DType d, bool silu) {
  const int n = 2, c = 320, hw = 64 * 64, groups = 32;  // SD1.5 ResBlock at L0, GroupNorm(32, eps 1e-6)
  const size_t numel = static_cast<size_t>(n) * c * hw;
  r.add(std::make_unique<SimpleOperator>(
      spec(silu ? "groupnorm_silu" : "groupnorm", d, "B2_C320_H64_W64_G32", "SD1.5 ResBlock", static_cast<double>(numel)),
      std::vector<TensorShape>{{d, numel}, {d, static_cast<size_t>(c), 0.5, 1.5}, {d, static_cast<size_t>(c), -0.5, 0.5}},
      TensorShape{d, numel},
      [d, silu](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
        launch_groupnorm(d, in[0].buffer.get(), in[1].buffer.get(), in[2].buffer.get(), out.buffer.get(), n, c, hw, groups,
                         1e-6f, silu, s);
      },
      [silu](const Inputs& in) {
        std::vector<double> y(numel);
        const size_t count = static_cast<size_t>(c / groups) * hw;
        for (size_t grp = 0; grp < static_cast<size_t>(n) * groups; ++grp) {
          const auto [mean, rstd] = stats(in[0], grp * count, count, 1e-6);
          for (size_t i = 0; i < count; ++i) {
            const size_t ch = (grp % groups) * (c / groups) + i / hw;
            double v = (in[0][grp * count + i] - mean) * rstd * in[1][ch] + in[2][ch];
            if (silu) v = v / (1.0 + std::exp(-v));
            y[grp * count + i] = v;
          }
        }
        return y;
      },
      std::vector<KernelRef>{{silu ? "groupnorm_silu" : "groupnorm", groupnorm_kernel(d, silu)}}));
}

}  // namespace

void register_operators(Registry& r) {
  for (DType d : {DType::F32, DType::F16, DType::BF16}) {
    add_layernorm(r, d, true);
    add_layernorm(r, d, false);
    add_rmsnorm(r, d);
    add_groupnorm(r, d, false);
    add_groupnorm(r, d, true);
  }
}

}  // namespace archbench::kernels::norm
