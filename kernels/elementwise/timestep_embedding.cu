// Sinusoidal timestep embedding of SD1.5 (openaimodel.py timestep_embedding; diffusers Timesteps
// with flip_sin_to_cos=True, downscale_freq_shift=0): for t [batch] and half = dim / 2,
// y[b] = [cos(t_b f_0) .. cos(t_b f_{half-1}), sin(t_b f_0) .. sin(t_b f_{half-1})] (+ one zero
// column when dim is odd), f_i = max_period^(-i / half). One thread per (b, i).
//
// Precision: t f_i reaches ~1000 rad, where an fp32 product is off by up to ~6e-5 rad (PyTorch's
// fp32 version carries that error); f_i and the phase are therefore formed in fp64 and reduced
// to [-pi, pi] before fp32 sincosf. The work is a few hundred elements: launch-bound either way.
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "harness/util/cuda_check.hpp"
#include "kernels/common/convert.cuh"
#include "kernels/elementwise/elementwise_kernels.hpp"

namespace archbench::kernels::elementwise {
namespace {

constexpr int kThreads = 128;

template <typename T>
__global__ void __launch_bounds__(kThreads) timestep_embedding(const float* t, T* y, int batch, int dim,
                                                               double log_max_period) {
  const int half = dim / 2;
  const int idx = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
  if (idx >= batch * half) return;
  const int b = idx / half, i = idx % half;
  const double freq = exp(-log_max_period * static_cast<double>(i) / static_cast<double>(half));
  double phase = static_cast<double>(t[b]) * freq;
  constexpr double kTwoPi = 6.283185307179586;
  phase -= kTwoPi * rint(phase / kTwoPi);
  float s = 0, c = 0;
  sincosf(static_cast<float>(phase), &s, &c);
  T* row = y + static_cast<size_t>(b) * dim;
  row[i] = from_float<T>(c);
  row[half + i] = from_float<T>(s);
  if (i == 0 && dim % 2 == 1) row[dim - 1] = from_float<T>(0.0f);
}

}  // namespace

void launch_timestep_embedding(DType dtype, const float* t, void* y, int batch, int dim, double max_period,
                               cudaStream_t stream) {
  if (batch <= 0 || dim <= 1) throw std::invalid_argument("timestep_embedding: needs batch >= 1 and dim >= 2");
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    const int threads = batch * (dim / 2);
    const unsigned grid = static_cast<unsigned>((threads + kThreads - 1) / kThreads);
    timestep_embedding<T><<<grid, kThreads, 0, stream>>>(t, static_cast<T*>(y), batch, dim, std::log(max_period));
  });
  ARCHBENCH_CHECK_LAUNCH();
}

const void* timestep_embedding_kernel(DType dtype) {
  return storage_kernel(dtype, [](auto tag) { return &timestep_embedding<decltype(tag)>; });
}

}  // namespace archbench::kernels::elementwise
