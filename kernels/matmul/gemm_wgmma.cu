// fp16 / bf16 / FP8 GEMM for Hopper: C[M,N] = A[M,K] · B[N,K]ᵀ (see gemm_wgmma.hpp), the main loop
// of kernels/common/wgmma_gemm.cuh (its top says how it works) with A a row-major matrix copied in
// 2-D boxes. Compiled for sm_90a only (CMakeLists.txt).
#include "kernels/matmul/gemm_launch_checks.hpp"
#include "kernels/matmul/gemm_wgmma.hpp"
#include "kernels/common/wgmma_gemm.cuh"

#include <string>

namespace archbench::kernels::matmul {
namespace {

using wgmma_gemm::kBlockK;
using wgmma_gemm::kBlockM;
using wgmma_gemm::BOperand;
using wgmma_gemm::kIsFp8;

// A row-major A[M, K], in tiles of 128 rows at the GEMM's widths.
template <typename In>
using MatrixA = wgmma_gemm::MatrixA<In, kWgmmaTileWidths>;

template <typename In, typename Out>
void launch(const char* fn, const In* A, const BOperand<In>* B, Out* C, int M, int N, int K, const float* scale_a,
            const float* scale_b, cudaStream_t stream) {
  // N % 8: the result's rows must be 16-byte strided for the copy engine's stores; K % 16 for FP8
  // operands' rows to be 16-byte strided too.
  validate_gemm_launch(fn, GemmTiling{kBlockM, kWgmmaTileWidths.back(), kIsFp8<In> ? 16 : 8, 8}, A, B, C, M, N, K);
  if (kIsFp8<In> && (scale_a == nullptr || scale_b == nullptr)) {
    throw std::invalid_argument(std::string(fn) + ": FP8 operands need both per-tensor scales");
  }
  const CUtensorMap map_a = matrix_tensor_map(A, M, K, kBlockM, kBlockK<In>, "gemm_wgmma");
  wgmma_gemm::launch<In, Out>(map_a, MatrixA<In>{}, B, C, M, N, K, scale_a, scale_b, stream);
}

template <typename In, typename Out>
const void* kernel_for(int tile_n) {
  return wgmma_gemm::kernel_for<In, Out, MatrixA<In>>(tile_n);
}

}  // namespace

void launch_gemm_wgmma_f16(const __half* A, const __half* B, __half* C, int M, int N, int K, cudaStream_t stream) {
  launch("launch_gemm_wgmma_f16", A, B, C, M, N, K, nullptr, nullptr, stream);
}

void launch_gemm_wgmma_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
                            cudaStream_t stream) {
  launch("launch_gemm_wgmma_bf16", A, B, C, M, N, K, nullptr, nullptr, stream);
}

void launch_gemm_wgmma_e4m3(const __nv_fp8_e4m3* A, const __nv_fp8_e4m3* B, __nv_bfloat16* C, int M, int N, int K,
                            const float* scale_a, const float* scale_b, cudaStream_t stream) {
  launch("launch_gemm_wgmma_e4m3", A, B, C, M, N, K, scale_a, scale_b, stream);
}

void launch_gemm_wgmma_e5m2(const __nv_fp8_e5m2* A, const __nv_fp8_e4m3* B, __nv_bfloat16* C, int M, int N, int K,
                            const float* scale_a, const float* scale_b, cudaStream_t stream) {
  launch("launch_gemm_wgmma_e5m2", A, B, C, M, N, K, scale_a, scale_b, stream);
}

const void* gemm_wgmma_f16_kernel(int tile_n) { return kernel_for<__half, __half>(tile_n); }
const void* gemm_wgmma_bf16_kernel(int tile_n) { return kernel_for<__nv_bfloat16, __nv_bfloat16>(tile_n); }
const void* gemm_wgmma_e4m3_kernel(int tile_n) { return kernel_for<__nv_fp8_e4m3, __nv_bfloat16>(tile_n); }
const void* gemm_wgmma_e5m2_kernel(int tile_n) { return kernel_for<__nv_fp8_e5m2, __nv_bfloat16>(tile_n); }

}  // namespace archbench::kernels::matmul
