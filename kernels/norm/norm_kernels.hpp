// Normalizations of a diffusion step (workload.md §1): LayerNorm (Flux: no affine, eps 1e-6),
// RMSNorm over the head dim (Flux QK-norm), GroupNorm(32) in NCHW with an optional fused SiLU
// (SD ResBlocks). fp32 statistics for every dtype.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "harness/ops/dtype.hpp"

namespace archbench::kernels::norm {

// y = (x - mean) / sqrt(var + eps) [* gamma + beta] over each row of x [rows, cols].
void launch_layernorm(DType dtype, const void* x, const void* gamma, const void* beta, void* y, size_t rows, int cols,
                      float eps, cudaStream_t stream);
// y = x / sqrt(mean(x^2) + eps) * weight over rows of 128 (one warp per row).
void launch_rmsnorm128(DType dtype, const void* x, const void* weight, void* y, size_t rows, float eps, cudaStream_t stream);
// GroupNorm over NCHW x [n, c, hw] with `groups` groups, affine, optionally followed by SiLU.
void launch_groupnorm(DType dtype, const void* x, const void* gamma, const void* beta, void* y, int n, int c, int hw,
                      int groups, float eps, bool silu, cudaStream_t stream);

const void* layernorm_kernel(DType dtype, bool affine);
const void* rmsnorm128_kernel(DType dtype);
const void* groupnorm_kernel(DType dtype, bool silu);

}  // namespace archbench::kernels::norm
