#include "kernels/elementwise/elementwise_operators.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "harness/ops/simple_problem.hpp"
#include "kernels/elementwise/elementwise_kernels.hpp"

namespace archbench::kernels::elementwise {
namespace {

using Inputs = std::vector<std::vector<double>>;

double silu_ref(double v) { return v / (1.0 + std::exp(-v)); }
double gelu_tanh_ref(double v) { return 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v))); }
double gelu_erf_ref(double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); }

OperatorSpec spec(const char* name, DType d, std::string shape, const char* model, double bytes_per_elem_moved, double elems) {
  return memory_bound_spec("elementwise", name, d, std::move(shape), model,
                           static_cast<double>(storage_bytes(d)) * bytes_per_elem_moved * elems);
}

void add_activation(Registry& r, Activation act, DType d) {
  // SiLU on a SD1.5 ResBlock activation; GELU(tanh) on Flux's MLP hidden state.
  const bool silu = act == Activation::Silu;
  const size_t n = silu ? size_t{2} * 320 * 64 * 64 : size_t{4608} * 12288;
  r.add(std::make_unique<SimpleOperator>(
      spec(silu ? "silu" : "gelu_tanh", d, silu ? "B2_C320_H64_W64" : "M4608_N12288",
           silu ? "SD1.5 ResBlock" : "Flux MLP", 2, static_cast<double>(n)),
      std::vector<TensorShape>{{d, n, -4, 4}}, TensorShape{d, n},
      [act, d, n](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
        launch_activation(act, d, in[0].buffer.get(), out.buffer.get(), n, s);
      },
      [silu](const Inputs& in) {
        std::vector<double> y(in[0].size());
        for (size_t i = 0; i < y.size(); ++i) y[i] = silu ? silu_ref(in[0][i]) : gelu_tanh_ref(in[0][i]);
        return y;
      },
      std::vector<KernelRef>{{silu ? "silu" : "gelu_tanh", activation_kernel(act, d)}}));
}

void add_geglu(Registry& r, DType d) {
  const size_t rows = 8192, cols = 1280;  // SD1.5 L0: Linear(320 -> 2 * 1280), then hidden * gelu(gate)
  r.add(std::make_unique<SimpleOperator>(
      spec("geglu", d, "M8192_N1280", "SD1.5 transformer FF", 3, static_cast<double>(rows * cols)),
      std::vector<TensorShape>{{d, rows * 2 * cols, -3, 3}}, TensorShape{d, rows * cols},
      [d](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
        launch_geglu(d, in[0].buffer.get(), out.buffer.get(), rows, cols, s);
      },
      [](const Inputs& in) {
        std::vector<double> y(rows * cols);
        for (size_t i = 0; i < rows; ++i) {
          for (size_t c = 0; c < cols; ++c) y[i * cols + c] = in[0][i * 2 * cols + c] * gelu_erf_ref(in[0][i * 2 * cols + cols + c]);
        }
        return y;
      },
      std::vector<KernelRef>{{"geglu", geglu_kernel(d)}}));
}

void add_residual(Registry& r, DType d) {
  const size_t n = size_t{2} * 320 * 64 * 64;
  r.add(std::make_unique<SimpleOperator>(
      spec("residual_add", d, "B2_C320_H64_W64", "SD1.5 ResBlock skip", 3, static_cast<double>(n)),
      std::vector<TensorShape>{{d, n}, {d, n}}, TensorShape{d, n},
      [d](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
        launch_add(d, in[0].buffer.get(), in[1].buffer.get(), out.buffer.get(), n, s);
      },
      [](const Inputs& in) {
        std::vector<double> y(in[0].size());
        for (size_t i = 0; i < y.size(); ++i) y[i] = in[0][i] + in[1][i];
        return y;
      },
      std::vector<KernelRef>{{"add", add_kernel(d)}}));
}

void add_upsample(Registry& r, DType d) {
  const size_t planes = size_t{2} * 1280;
  const int h = 16, w = 16;
  const size_t n_in = planes * h * w;
  r.add(std::make_unique<SimpleOperator>(
      spec("upsample_nearest2x", d, "B2_C1280_H16_W16", "SD1.5 decoder upsample", 5, static_cast<double>(n_in)),
      std::vector<TensorShape>{{d, n_in}}, TensorShape{d, 4 * n_in},
      [d](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
        launch_upsample_nearest2x(d, in[0].buffer.get(), out.buffer.get(), planes, h, w, s);
      },
      [](const Inputs& in) {
        std::vector<double> y(4 * n_in);
        for (size_t p = 0; p < planes; ++p) {
          for (int oy = 0; oy < 2 * h; ++oy) {
            for (int ox = 0; ox < 2 * w; ++ox) y[p * 4 * h * w + oy * 2 * w + ox] = in[0][p * h * w + (oy / 2) * w + ox / 2];
          }
        }
        return y;
      },
      std::vector<KernelRef>{{"upsample_nearest2x", upsample_kernel(d)}}));
}

}  // namespace

void register_operators(Registry& r) {
  for (DType d : {DType::F32, DType::F16, DType::BF16}) {
    add_activation(r, Activation::Silu, d);
    add_activation(r, Activation::GeluTanh, d);
    add_geglu(r, d);
    add_residual(r, d);
    add_upsample(r, d);
  }
}

}  // namespace archbench::kernels::elementwise
