#include "kernels/attention/attention_math.hpp"

#include <cublas_v2.h>

#include <cmath>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include "harness/vendor/cublas_check.hpp"
#include "harness/util/cuda_raii.hpp"
#include "kernels/attention/attention_kernels.hpp"

namespace archbench::kernels::attention {
namespace {

cudaDataType_t cuda_type(DType d) {
  switch (d) {
    case DType::F32: return CUDA_R_32F;
    case DType::F16: return CUDA_R_16F;
    case DType::BF16: return CUDA_R_16BF;
    case DType::TF32:
    case DType::E4M3:
    case DType::E5M2: break;
  }
  throw std::invalid_argument("attention math path: f32, f16 or bf16 (got " + std::string(dtype_name(d)) + ")");
}

}  // namespace

AttentionLaunch make_math_launch(const AttentionDims& dims, DType dtype) {
  const cudaDataType_t type = cuda_type(dtype);
  const size_t scores = dims.heads() * static_cast<size_t>(dims.Nq) * static_cast<size_t>(dims.Nk);
  // shared_ptr: the launch is a copyable std::function that owns its workspace.
  auto s_buf = std::make_shared<DeviceBuffer>(scores * sizeof(float));
  auto p_buf = std::make_shared<DeviceBuffer>(scores * storage_bytes(dtype));
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dims.D)));
  return [=](const DeviceTensor& q, const DeviceTensor& k, const DeviceTensor& v, DeviceTensor& o,
             cudaStream_t stream) {
    const int n_q = dims.Nq, n_k = dims.Nk, d = dims.D;
    const int batch = static_cast<int>(dims.heads());
    const long long q_stride = static_cast<long long>(n_q) * d;
    const long long kv_stride = static_cast<long long>(n_k) * d;
    const long long s_stride = static_cast<long long>(n_q) * n_k;
    const float one = 1.0f, zero = 0.0f;
    cublasHandle_t h = cublas_handle();
    ARCHBENCH_CUBLAS_CHECK(cublasSetStream(h, stream));
    // cuBLAS is column-major. Per head, the row-major S[Nq,Nk] = Q Kᵀ is the column-major
    // Sᵀ[Nk,Nq] = K·Qᵀ: op T on K's [d,Nk] column-major view, op N on Q's [d,Nq] view.
    ARCHBENCH_CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n_k, n_q, d, &one, k.buffer.get(),
                                                      type, d, kv_stride, q.buffer.get(), type, d, q_stride, &zero,
                                                      s_buf->get(), CUDA_R_32F, n_k, s_stride, batch,
                                                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    launch_softmax_rows(dtype, s_buf->as<float>(), p_buf->get(), dims.heads() * static_cast<size_t>(n_q), n_k, scale,
                        stream);
    // Row-major O[Nq,d] = P V is the column-major Oᵀ[d,Nq] = Vᵀ·Pᵀ: V's [d,Nk] and P's [Nk,Nq]
    // column-major views, both op N.
    ARCHBENCH_CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, d, n_q, n_k, &one, v.buffer.get(),
                                                      type, d, kv_stride, p_buf->get(), type, n_k, s_stride, &zero,
                                                      o.buffer.get(), type, d, q_stride, batch, CUBLAS_COMPUTE_32F,
                                                      CUBLAS_GEMM_DEFAULT));
  };
}

}  // namespace archbench::kernels::attention
