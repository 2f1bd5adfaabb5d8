// Elementwise and glue kernels of a diffusion step (workload.md §1): SiLU, GELU (tanh), GEGLU,
// residual add, nearest 2x upsample. Storage in the operator's dtype, math in fp32.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "harness/ops/dtype.hpp"

namespace archbench::kernels::elementwise {

enum class Activation { Silu, GeluTanh };

void launch_activation(Activation act, DType dtype, const void* x, void* y, size_t n, cudaStream_t stream);
void launch_add(DType dtype, const void* a, const void* b, void* y, size_t n, cudaStream_t stream);
// x [rows, 2 * cols] = [hidden | gate] (diffusers' GEGLU chunk order) -> y [rows, cols] = hidden * gelu(gate) (erf GELU).
void launch_geglu(DType dtype, const void* x, void* y, size_t rows, size_t cols, cudaStream_t stream);
// NCHW: y[n, c, 2h, 2w] = x[n, c, h, w] (F.interpolate(scale_factor=2, mode="nearest")).
void launch_upsample_nearest2x(DType dtype, const void* x, void* y, size_t planes, int h, int w, cudaStream_t stream);

// Host stubs of the kernels each launch function uses, for the image probe.
const void* activation_kernel(Activation act, DType dtype);
const void* add_kernel(DType dtype);
const void* geglu_kernel(DType dtype);
const void* upsample_kernel(DType dtype);

}  // namespace archbench::kernels::elementwise
