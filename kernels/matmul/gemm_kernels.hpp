// Hand-written GEMM kernels: the nn.Linear product y = x · Wᵀ.
//
//   C[M,N] = A[M,K] · B[N,K]ᵀ
//
// All three matrices are dense and row-major: A and B are K-contiguous (leading dimension K),
// C is N-contiguous (leading dimension N). The kernels accumulate in fp32.
//
// Requirements checked by every launch function (std::invalid_argument otherwise):
//   * M >= 1, N >= 1; any values, no tile multiple needed (edges are bounds-checked).
//   * K >= 8 and K % 8 == 0: the kernels move K in 16-byte vectors (4 floats or 8 halves), so
//     every row of A and B must start 16-byte aligned and end on a vector boundary.
//   * A, B and C 16-byte aligned (cudaMalloc gives 256).
// Launch functions enqueue on `stream` and never synchronize. A failing CUDA call throws
// std::runtime_error naming the call, file:line and the cudaError_t.
//
// Plain C++: this header is includable from host code compiled by g++.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace archbench::kernels::matmul {

// fp32 on the SIMT cores (no tensor cores). Any compute capability the build targets.
void launch_gemm_simt_f32(const float* A, const float* B, float* C, int M, int N, int K,
                          cudaStream_t stream);

// Address of the __global__ function that launch_gemm_simt_f32 launches (for
// cudaFuncGetAttributes and similar).
[[nodiscard]] const void* gemm_simt_f32_kernel();

// Tensor cores (mma.sync m16n8k16), fp32 accumulation, C in the input type (round to nearest).
// Needs compute capability 8.0 or newer (cp.async, bf16 mma). Code built for an older target
// fills C with quiet NaN instead of computing, so a correctness check fails visibly.
void launch_gemm_tc_f16(const __half* A, const __half* B, __half* C, int M, int N, int K,
                        cudaStream_t stream);
void launch_gemm_tc_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C,
                         int M, int N, int K, cudaStream_t stream);

// Addresses of the __global__ functions launched by the two functions above.
[[nodiscard]] const void* gemm_tc_f16_kernel();
[[nodiscard]] const void* gemm_tc_bf16_kernel();

}  // namespace archbench::kernels::matmul
