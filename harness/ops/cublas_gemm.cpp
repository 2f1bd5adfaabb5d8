#include "harness/ops/cublas_gemm.hpp"

#include <cublasLt.h>
#include <cublas_v2.h>

#include <map>
#include <memory>
#include <tuple>

#include "harness/util/cuda_raii.hpp"
#include "harness/util/device_handle.hpp"
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
  if (is_fp8(math)) throw std::invalid_argument("cublas_gemm_nt: FP8 takes scales: cublas_gemm_nt_fp8");
  const float alpha = 1.0f, beta = 0.0f;
  cublasHandle_t h = cublas_handle();
  ARCHBENCH_CUBLAS_CHECK(cublasSetStream(h, stream));
  ARCHBENCH_CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, b, type, k, a, type, k, &beta, c,
                                      type, n, compute, CUBLAS_GEMM_DEFAULT));
}

namespace {

cublasLtHandle_t cublaslt_handle() {
  return thread_device_handle<cublasLtContext, &cublasLtDestroy>(
      [](cublasLtHandle_t* h) { ARCHBENCH_CUBLAS_CHECK(cublasLtCreate(h)); });
}

// One FP8 problem's descriptors and the algorithm cuBLASLt's heuristic chose for it, made once
// per thread, device and shape (the heuristic costs host time on every call otherwise).
class Fp8Plan {
 public:
  // The heuristic sees the descriptor as the matmul will (scales set). Each scale must be a
  // pointer of its own allocation: with the B scale 4 bytes into the A scale's buffer cuBLASLt
  // returned algorithms but refused the matmul (CUBLAS_STATUS_NOT_SUPPORTED, H100 and H200).
  Fp8Plan(cublasLtHandle_t h, DType a_type, int m, int n, int k, bool fast_accumulation, const float* scale_a,
          const float* scale_b) {
    ARCHBENCH_CUBLAS_CHECK(cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t t = CUBLAS_OP_T, nop = CUBLAS_OP_N;
    set(CUBLASLT_MATMUL_DESC_TRANSA, t);
    set(CUBLASLT_MATMUL_DESC_TRANSB, nop);
    const int8_t fast = fast_accumulation ? 1 : 0;
    set(CUBLASLT_MATMUL_DESC_FAST_ACCUM, fast);
    set(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, scale_b);  // cuBLASLt's A is our B
    set(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, scale_a);
    // Column-major, as cublas_gemm_nt: cuBLASLt's A is our B ([K,N], op T), its B our A ([K,M]).
    const cudaDataType_t our_a = a_type == DType::E5M2 ? CUDA_R_8F_E5M2 : CUDA_R_8F_E4M3;
    ARCHBENCH_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lt_a_, CUDA_R_8F_E4M3, k, n, k));  // fp8_partner: e4m3
    ARCHBENCH_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lt_b_, our_a, k, m, k));
    ARCHBENCH_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lt_c_, CUDA_R_16BF, n, m, n));
    ARCHBENCH_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&preference_));
    const size_t workspace = workspace_.bytes();
    ARCHBENCH_CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(preference_, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                                &workspace, sizeof workspace));
    int found = 0;
    ARCHBENCH_CUBLAS_CHECK(cublasLtMatmulAlgoGetHeuristic(h, desc_, lt_a_, lt_b_, lt_c_, lt_c_, preference_, 1,
                                                          &heuristic_, &found));
    if (found == 0) throw_cublas_error(CUBLAS_STATUS_NOT_SUPPORTED, "cublasLtMatmulAlgoGetHeuristic (no FP8 algorithm)",
                                       __FILE__, __LINE__);
  }
  ~Fp8Plan() {
    cublasLtMatmulPreferenceDestroy(preference_);
    cublasLtMatrixLayoutDestroy(lt_c_);
    cublasLtMatrixLayoutDestroy(lt_b_);
    cublasLtMatrixLayoutDestroy(lt_a_);
    cublasLtMatmulDescDestroy(desc_);
  }
  Fp8Plan(const Fp8Plan&) = delete;
  Fp8Plan& operator=(const Fp8Plan&) = delete;

  void run(cublasLtHandle_t h, const void* a, const void* b, void* c, const float* scale_a, const float* scale_b,
           cudaStream_t stream) {
    set(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, scale_b);  // cuBLASLt's A is our B
    set(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, scale_a);
    const float alpha = 1.0f, beta = 0.0f;
    ARCHBENCH_CUBLAS_CHECK(cublasLtMatmul(h, desc_, &alpha, b, lt_a_, a, lt_b_, &beta, c, lt_c_, c, lt_c_,
                                          &heuristic_.algo, workspace_.get(), workspace_.bytes(), stream));
  }

 private:
  template <typename V>
  void set(cublasLtMatmulDescAttributes_t attribute, const V& value) {
    ARCHBENCH_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, attribute, &value, sizeof value));
  }

  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t lt_a_ = nullptr, lt_b_ = nullptr, lt_c_ = nullptr;
  cublasLtMatmulPreference_t preference_ = nullptr;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  DeviceBuffer workspace_{size_t{32} << 20};  // 32 MiB, as PyTorch gives cuBLASLt on Hopper
};

}  // namespace

void cublas_gemm_nt_fp8(DType a_type, const void* a, const void* b, void* c, const float* scale_a, const float* scale_b,
                        int m, int n, int k, bool fast_accumulation, cudaStream_t stream) {
  if (!is_fp8(a_type)) throw std::invalid_argument("cublas_gemm_nt_fp8: A must be e4m3 or e5m2");
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  thread_local std::map<std::tuple<int, DType, int, int, int, bool>, std::unique_ptr<Fp8Plan>> plans;
  cublasLtHandle_t h = cublaslt_handle();
  auto& plan = plans[{device, a_type, m, n, k, fast_accumulation}];
  if (!plan) plan = std::make_unique<Fp8Plan>(h, a_type, m, n, k, fast_accumulation, scale_a, scale_b);
  plan->run(h, a, b, c, scale_a, scale_b, stream);
}

}  // namespace archbench
