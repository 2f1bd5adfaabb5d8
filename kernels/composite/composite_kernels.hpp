// The glue kernels the diffusion-step composite needs between the families' kernels: a broadcast
// add of a per-sample channel vector (the time embedding) and the two layout permutes between the
// GEMMs' token-major rows and the attention kernel's BHND tensors. Pure data movement (the add in
// fp32), storage f32, f16 or bf16. Launch functions enqueue on `stream`, never synchronize, and
// throw std::invalid_argument for non-positive sizes (CudaError on a failed launch).
//
// Plain C++: includable from host code compiled by g++.
#pragma once

#include <cuda_runtime.h>

#include "harness/ops/dtype.hpp"

namespace archbench::kernels::composite {

// y[b, p, c] = h[b, p, c] + v[b, c] for h, y [batch, pixels, channels] (NHWC) and v [batch, channels].
// y may be h (each element is read and written by the same thread).
void launch_add_channel_vector(DType dtype, const void* h, const void* v, void* y, int batch, int pixels,
                               int channels, cudaStream_t stream);
// qkv [batch, tokens, 3, heads, head_dim] (the fused QKV GEMM's rows: [q | k | v], each heads x
// head_dim) -> q, k, v each [batch, heads, tokens, head_dim] (BHND).
void launch_split_heads(DType dtype, const void* qkv, void* q, void* k, void* v, int batch, int tokens, int heads,
                        int head_dim, cudaStream_t stream);
// o [batch, heads, tokens, head_dim] (BHND) -> y [batch, tokens, heads * head_dim].
void launch_merge_heads(DType dtype, const void* o, void* y, int batch, int tokens, int heads, int head_dim,
                        cudaStream_t stream);

// Host stubs for the image probe.
[[nodiscard]] const void* add_channel_vector_kernel(DType dtype);
[[nodiscard]] const void* split_heads_kernel(DType dtype);
[[nodiscard]] const void* merge_heads_kernel(DType dtype);

}  // namespace archbench::kernels::composite
