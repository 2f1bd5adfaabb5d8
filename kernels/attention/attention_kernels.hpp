// Hand-written attention kernels (forward, no mask) and the math path's row softmax.
//
// Tensors are BHND and contiguous (attention_dims.hpp): Q [B,H,Nq,d], K and V [B,H,Nk,d],
// O [B,H,Nq,d]; O = softmax(Q Kᵀ / sqrt(d)) V. Requirements checked by every launch function
// (std::invalid_argument, before any CUDA call):
//   * B, H, Nq, Nk >= 1, B·H <= 65535; any Nq and Nk (tails are predicated and masked);
//   * d is one of kHeadDims (the kernels are instantiated per head dim);
//   * Q, K, V, O 16-byte aligned (cudaMalloc gives 256): rows move in 16-byte vectors, and
//     every d above is a multiple of 8 halves / 4 floats.
// Launch functions enqueue on `stream` and never synchronize; a failing CUDA call throws.
//
// Plain C++: includable from host code compiled by g++.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>

#include "harness/ops/dtype.hpp"
#include "kernels/attention/attention_dims.hpp"

namespace archbench::kernels::attention {

// SD1.5 uses 40/80/160 (8 heads), SDXL and SD3 64, Flux 128 (docs/reference/workload.md,
// "The models behind the shapes").
inline constexpr std::array<int, 5> kHeadDims{40, 64, 80, 128, 160};
[[nodiscard]] bool supported_head_dim(int d);

// The kernels' softmax runs on exp2 (e^x = 2^(x · log2 e)): launchers pass scale · log2 e.
inline constexpr double kLog2e = 1.4426950408889634;

// Throws std::invalid_argument naming `fn` when the dims or pointers break the rules above.
void validate_attention_args(const char* fn, const void* q, const void* k, const void* v, const void* o,
                             const AttentionDims& dims);

// FlashAttention-2-style forward on the tensor cores (mma.sync m16n8k16, fp32 accumulation,
// fp32 online softmax), f16 or bf16 storage. Needs compute capability 8.0 (cp.async, bf16
// mma); code built for an older target fills O with NaN instead of computing.
void launch_flash_attention(DType dtype, const void* q, const void* k, const void* v, void* o,
                            const AttentionDims& dims, cudaStream_t stream);
[[nodiscard]] const void* flash_attention_kernel(DType dtype, int head_dim);

// The same algorithm in fp32 on the SIMT cores (no tensor cores): any compute capability.
void launch_flash_attention_f32(const float* q, const float* k, const float* v, float* o, const AttentionDims& dims,
                                cudaStream_t stream);
[[nodiscard]] const void* flash_attention_f32_kernel(int head_dim);

// The math path's softmax: P[r, :] = softmax(scale · S[r, :]) for `rows` rows of `cols` fp32
// scores, fp32 math, P in the storage type of `dtype` (f32, f16, bf16). Rows are contiguous.
void launch_softmax_rows(DType dtype, const float* s, void* p, size_t rows, int cols, float scale,
                         cudaStream_t stream);
[[nodiscard]] const void* softmax_rows_kernel(DType dtype);

}  // namespace archbench::kernels::attention
