// C[M,N] = A[M,K] · B[N,K]ᵀ (row-major, nn.Linear's layout) through cuBLAS, in the storage and
// math of `math`: f32 (pure FP32), tf32 (FP32 storage, TF32 tensor cores), f16, bf16 (FP32
// accumulation). Used by the matmul family's library twins and by the ceiling measurement.
#pragma once

#include <cuda_runtime.h>

#include "harness/ops/dtype.hpp"

namespace archbench {

void cublas_gemm_nt(DType math, const void* a, const void* b, void* c, int m, int n, int k, cudaStream_t stream);

}  // namespace archbench
