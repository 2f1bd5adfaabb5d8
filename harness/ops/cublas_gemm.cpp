#include "harness/ops/cublas_gemm.hpp"

#include <cublas_v2.h>

#include <stdexcept>

#include "harness/vendor/cublas_check.hpp"

namespace archbench {

// cuBLAS is column-major: the row-major C[M,N] = A·Bᵀ is the column-major Cᵀ[N,M] = B·Aᵀ,
// i.e. op = T on the [K,N] column-major view of B and op = N on the [K,M] view of A.
void cublas_gemm_nt(DType math, const void* a, const void* b, void* c, int m, int n, int k, cudaStream_t stream) {
  cudaDataType_t type = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  if (math == DType::TF32) compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  if (math == DType::F16) type = CUDA_R_16F;
  if (math == DType::BF16) type = CUDA_R_16BF;
  if (math == DType::E4M3) throw std::invalid_argument("cublas_gemm_nt: no FP8 (e4m3) path; FP8 takes per-tensor scales");
  const float alpha = 1.0f, beta = 0.0f;
  cublasHandle_t h = cublas_handle();
  ARCHBENCH_CUBLAS_CHECK(cublasSetStream(h, stream));
  ARCHBENCH_CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, b, type, k, a, type, k, &beta, c,
                                      type, n, compute, CUBLAS_GEMM_DEFAULT));
}

}  // namespace archbench
