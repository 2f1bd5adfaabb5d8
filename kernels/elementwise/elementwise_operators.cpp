#include "kernels/elementwise/elementwise_operators.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/ops/simple_problem.hpp"
#include "harness/util/parallel_for.hpp"
#include "kernels/elementwise/elementwise_kernels.hpp"
#include "kernels/elementwise/elementwise_reference.hpp"
#include "kernels/elementwise/rope_operator.hpp"

namespace archbench::kernels::elementwise {
namespace {

using Inputs = std::vector<std::vector<double>>;

OperatorSpec spec(const char* name, DType d, std::string shape, const char* model, double bytes_per_elem_moved, double elems) {
  return memory_bound_spec("elementwise", name, d, std::move(shape), model,
                           static_cast<double>(storage_bytes(d)) * bytes_per_elem_moved * elems);
}

const char* activation_name(Activation act) {
  switch (act) {
    case Activation::Silu: return "silu";
    case Activation::GeluTanh: return "gelu_tanh";
    case Activation::GeluErf: return "gelu_erf";
  }
  return "activation";
}

// The float64 reference of an activation, chosen once (not per element).
double (*activation_reference(Activation act))(double) {
  switch (act) {
    case Activation::Silu: return silu_reference;
    case Activation::GeluTanh: return gelu_tanh_reference;
    case Activation::GeluErf: return gelu_erf_reference;
  }
  return nullptr;
}

// The activations y = f(x) over n elements named `shape`, inputs in [-4, 4).
SimpleShape activation_shape(Activation act, DType d, std::string shape, size_t n) {
  return {std::move(shape), {{d, n, -4, 4}}, {d, n},
          [act, d, n](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
            launch_activation(act, d, in[0].buffer.get(), out.buffer.get(), n, s);
          },
          [f = activation_reference(act)](const Inputs& in) { return parallel_map(in[0], f); }};
}

void add_activation(Registry& r, Activation act, DType d) {
  const char* name = activation_name(act);
  if (act == Activation::Silu) {
    // SiLU on a SD1.5 ResBlock activation (2.6 M elements: checked at that shape itself).
    const size_t n = size_t{2} * 320 * 64 * 64;
    const SimpleShape shape = activation_shape(act, d, "B2_C320_H64_W64", n);
    r.add(std::make_unique<SimpleOperator>(spec(name, d, shape.name, "SD1.5 ResBlock", 2, static_cast<double>(n)),
                                           shape, shape, std::vector<KernelRef>{{name, activation_kernel(act, d)}}));
    return;
  }
  // GELU (tanh or erf) on Flux's MLP hidden state [4608, 12288]; checked on 192 of its rows, as
  // many elements as the other element-wise checks (the benchmark shape is checked finite).
  const size_t cols = 12288;
  const SimpleShape bench = activation_shape(act, d, "M4608_N12288", 4608 * cols);
  r.add(std::make_unique<SimpleOperator>(spec(name, d, bench.name, "Flux MLP", 2, 4608.0 * cols),  // x read, y written
                                         bench, activation_shape(act, d, "M192_N12288", 192 * cols),
                                         std::vector<KernelRef>{{name, activation_kernel(act, d)}}));
}

// hidden * gelu(gate) of SD1.5 L0's Linear(320 -> 2 * 1280) output, [rows, 2 * cols] -> [rows, cols].
SimpleShape geglu_shape(DType d, size_t rows, size_t cols) {
  return {"M" + std::to_string(rows) + "_N" + std::to_string(cols), {{d, rows * 2 * cols, -3, 3}}, {d, rows * cols},
          [d, rows, cols](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
            launch_geglu(d, in[0].buffer.get(), out.buffer.get(), rows, cols, s);
          },
          [rows, cols](const Inputs& in) { return geglu_reference(in[0], rows, cols); }};
}

void add_geglu(Registry& r, DType d) {
  // Checked on 2048 of the 8192 rows: the row (hidden and gate halves) is kept whole.
  const SimpleShape bench = geglu_shape(d, 8192, 1280);
  r.add(std::make_unique<SimpleOperator>(spec("geglu", d, bench.name, "SD1.5 transformer FF", 3, 8192.0 * 1280), bench,
                                         geglu_shape(d, 2048, 1280),
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
      [](const Inputs& in) { return upsample_nearest2x_reference(in[0], planes, h, w); },
      std::vector<KernelRef>{{"upsample_nearest2x", upsample_kernel(d)}}));
}

void add_timestep_embedding(Registry& r, DType d) {
  // SD1.5's sinusoidal embedding of the CFG batch's timesteps (B = 2, model_channels 320), before
  // time_embed's Linear(320, 1280). Timesteps arrive as fp32 (diffusers/ldm build them as float
  // tensors); the dtype is the embedding's. A few hundred elements: launch-bound by nature.
  const int batch = 2, dim = 320;
  const double bytes = 4.0 * batch + static_cast<double>(storage_bytes(d)) * batch * dim;
  r.add(std::make_unique<SimpleOperator>(
      memory_bound_spec("elementwise", "timestep_embedding", d, "B2_D320", "SD1.5 time embedding", bytes),
      std::vector<TensorShape>{{DType::F32, static_cast<size_t>(batch), 0.0, 1000.0}},
      TensorShape{d, static_cast<size_t>(batch) * dim},
      [d](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
        launch_timestep_embedding(d, in[0].as<const float>(), out.buffer.get(), batch, dim, 10000.0, s);
      },
      [](const Inputs& in) { return timestep_embedding_reference(in[0], dim); },
      std::vector<KernelRef>{{"timestep_embedding", timestep_embedding_kernel(d)}}));
}

void add_rope(Registry& r, DType d) {
  // Flux-dev at 1024^2: q (or k) [1, 24, 512 text + 64 x 64 image tokens, 128], axes_dim
  // [16, 56, 56], theta 1e4. Bytes: x read and y written once, plus the fp32 (cos, sin) table
  // [tokens, 64] read once (it is shared by the heads).
  const RopeShape shape;
  const double elems = static_cast<double>(shape.batch) * shape.heads * shape.tokens() * shape.dim();
  const double table_bytes = 2.0 * sizeof(float) * shape.tokens() * (shape.dim() / 2);
  const double bytes = 2.0 * static_cast<double>(storage_bytes(d)) * elems + table_bytes;
  r.add(std::make_unique<RopeOperator>(
      memory_bound_spec("elementwise", "rope", d, "B1_H24_N4608_D128", "Flux attention RoPE", bytes), shape));
}

}  // namespace

void register_operators(Registry& r) {
  for (DType d : {DType::F32, DType::F16, DType::BF16}) {
    add_activation(r, Activation::Silu, d);
    add_activation(r, Activation::GeluTanh, d);
    add_activation(r, Activation::GeluErf, d);
    add_geglu(r, d);
    add_residual(r, d);
    add_upsample(r, d);
    add_timestep_embedding(r, d);
    add_rope(r, d);
  }
}

}  // namespace archbench::kernels::elementwise
