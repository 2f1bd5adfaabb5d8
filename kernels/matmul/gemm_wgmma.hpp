// The Hopper GEMM: wgmma (sm_90a) fed by the tensor memory accelerator. Same contract as
// gemm_kernels.hpp: C[M,N] = A[M,K] · B[N,K]ᵀ, all row-major, fp32 accumulation, C in the input
// type (round to nearest); any M >= 1; N and K positive multiples of 8 (the copy engine reads and
// writes 16-byte-strided rows); A, B, C 16-byte aligned.
//
// Its code exists only for sm_90a, which runs only on compute capability 9.0 exactly. The build
// compiles kernels/matmul/gemm_wgmma.cu for sm_90a alone when the arch list has 9.0 or 9.0a (as
// vLLM and FlashAttention-3 build their Hopper kernels); a list without either gets
// kernels/matmul/gemm_wgmma_absent.cpp instead, whose kernel addresses are null and
// whose launches throw, so the operator exists and says why it has no image.
//
// Plain C++17: this header is includable from host code compiled by g++ and from .cu files.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>


namespace archbench::kernels::matmul {

// Launches enqueue on `stream` and never synchronize; std::invalid_argument for arguments
// outside the contract, std::runtime_error for a failing CUDA call or a build without sm_90a.
void launch_gemm_wgmma_f16(const __half* A, const __half* B, __half* C, int M, int N, int K, cudaStream_t stream);
void launch_gemm_wgmma_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
                            cudaStream_t stream);

// FP8: e4m3 A and B with per-tensor scales (device floats), C = scale_a * scale_b * A · Bᵀ in bf16
// (torch._scaled_mm's contract); K a multiple of 16.
void launch_gemm_wgmma_e4m3(const __nv_fp8_e4m3* A, const __nv_fp8_e4m3* B, __nv_bfloat16* C, int M, int N, int K,
                            const float* scale_a, const float* scale_b, cudaStream_t stream);
// The same with an e5m2 A (FP8 training's gradients) and an e4m3 B, the mix cuBLASLt takes.
void launch_gemm_wgmma_e5m2(const __nv_fp8_e5m2* A, const __nv_fp8_e4m3* B, __nv_bfloat16* C, int M, int N, int K,
                            const float* scale_a, const float* scale_b, cudaStream_t stream);

// The __global__ functions a launch may pick, one per tile width of gemm_wgmma_tiling.hpp
// (tile_n 256, 224 or 192); null when this build has no sm_90a target.
[[nodiscard]] const void* gemm_wgmma_f16_kernel(int tile_n);
[[nodiscard]] const void* gemm_wgmma_bf16_kernel(int tile_n);
[[nodiscard]] const void* gemm_wgmma_e4m3_kernel(int tile_n);
[[nodiscard]] const void* gemm_wgmma_e5m2_kernel(int tile_n);

}  // namespace archbench::kernels::matmul
