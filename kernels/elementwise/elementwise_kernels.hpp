// Elementwise and glue kernels of a diffusion step (docs/reference/workload.md, "The models behind the
// shapes"): SiLU, GELU (tanh), GEGLU, residual add, nearest 2x upsample, the sinusoidal timestep embedding
// and Flux's RoPE. Storage in the operator's dtype, math in fp32. Every kernel moves 16-byte packs where the
// buffers are 16-byte aligned and the shape allows, and falls back to scalar accesses otherwise.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "harness/ops/dtype.hpp"

namespace archbench::kernels::elementwise {

enum class Activation { Silu, GeluTanh, GeluErf };

void launch_activation(Activation act, DType dtype, const void* x, void* y, size_t n, cudaStream_t stream);
void launch_add(DType dtype, const void* a, const void* b, void* y, size_t n, cudaStream_t stream);
// x [rows, 2 * cols] = [hidden | gate] (diffusers' GEGLU chunk order) -> y [rows, cols] = hidden * gelu(gate) (erf GELU).
void launch_geglu(DType dtype, const void* x, void* y, size_t rows, size_t cols, cudaStream_t stream);
// NCHW: y[n, c, 2h, 2w] = x[n, c, h, w] (F.interpolate(scale_factor=2, mode="nearest")).
void launch_upsample_nearest2x(DType dtype, const void* x, void* y, size_t planes, int h, int w, cudaStream_t stream);
// t [batch] fp32 -> y [batch, dim] = [cos(t f_i) for i < half, sin(t f_i) for i < half] (+ a zero
// column when dim is odd), half = dim / 2, f_i = max_period^(-i / half): SD1.5's timestep_embedding.
void launch_timestep_embedding(DType dtype, const float* t, void* y, int batch, int dim, double max_period,
                               cudaStream_t stream);
// Flux apply_rope: x [batch, heads, tokens, dim]; rot [tokens, dim / 2] fp32 (cos, sin) pairs;
// y[.., 2j] = cos x[2j] - sin x[2j+1], y[.., 2j+1] = sin x[2j] + cos x[2j+1].
void launch_rope(DType dtype, const void* x, const float* rot, void* y, int batch, int heads, int tokens, int dim,
                 cudaStream_t stream);

// Host stubs of the kernels each launch function uses (16-byte aligned buffers), for the image probe.
const void* activation_kernel(Activation act, DType dtype);
const void* add_kernel(DType dtype);
const void* geglu_kernel(DType dtype);
const void* upsample_kernel(DType dtype);
const void* timestep_embedding_kernel(DType dtype);
const void* rope_kernel(DType dtype, int heads, int dim);

}  // namespace archbench::kernels::elementwise
