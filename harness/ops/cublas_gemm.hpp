// C[M,N] = A[M,K] · B[N,K]ᵀ (row-major, nn.Linear's layout) through cuBLAS, in the storage and
// math of `math`: f32 (pure FP32), tf32 (FP32 storage, TF32 tensor cores), f16, bf16 (FP32
// accumulation). Used by the matmul family's library twins and by the ceiling measurement.
#pragma once

#include <cuda_runtime.h>

#include "harness/ops/dtype.hpp"

namespace archbench {

void cublas_gemm_nt(DType math, const void* a, const void* b, void* c, int m, int n, int k, cudaStream_t stream);

// The FP8 form, as torch._scaled_mm calls cuBLASLt for an FP8 nn.Linear: A in `a_type` (e4m3, or
// e5m2 as FP8 training's gradients), B in e4m3 (fp8_partner), each with a per-tensor scale (a
// device float: C = scale_a * scale_b * A · Bᵀ), fp32 accumulation, C in bf16.
// `fast_accumulation` lets the tensor cores keep the running sum (CUBLASLT_MATMUL_DESC_FAST_ACCUM,
// _scaled_mm's use_fast_accum, what torchao's float8 forward uses); without it cuBLASLt promotes
// partial sums to fp32 registers at intervals. Throws LibraryError when cuBLASLt has no kernel
// for the device (FP8 needs compute capability 8.9 or newer).
void cublas_gemm_nt_fp8(DType a_type, const void* a, const void* b, void* c, const float* scale_a, const float* scale_b,
                        int m, int n, int k, bool fast_accumulation, cudaStream_t stream);

}  // namespace archbench
