// The wgmma GEMM in a build whose arch list has no 9.0 or 9.0a SASS target (CMakeLists.txt picks this file
// instead of gemm_wgmma.cu): no kernel to point at, and a launch says why.
#include "kernels/matmul/gemm_wgmma.hpp"

#include "kernels/common/sm90a_target.hpp"

namespace archbench::kernels::matmul {

void launch_gemm_wgmma_f16(const __half*, const __half*, __half*, int, int, int, cudaStream_t) {
  throw_without_sm90a("launch_gemm_wgmma_f16");
}

void launch_gemm_wgmma_bf16(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, int, cudaStream_t) {
  throw_without_sm90a("launch_gemm_wgmma_bf16");
}

void launch_gemm_wgmma_e4m3(const __nv_fp8_e4m3*, const __nv_fp8_e4m3*, __nv_bfloat16*, int, int, int, const float*,
                            const float*, cudaStream_t) {
  throw_without_sm90a("launch_gemm_wgmma_e4m3");
}

void launch_gemm_wgmma_e5m2(const __nv_fp8_e5m2*, const __nv_fp8_e4m3*, __nv_bfloat16*, int, int, int, const float*,
                            const float*, cudaStream_t) {
  throw_without_sm90a("launch_gemm_wgmma_e5m2");
}

const void* gemm_wgmma_f16_kernel(int) { return nullptr; }
const void* gemm_wgmma_bf16_kernel(int) { return nullptr; }
const void* gemm_wgmma_e4m3_kernel(int) { return nullptr; }
const void* gemm_wgmma_e5m2_kernel(int) { return nullptr; }

}  // namespace archbench::kernels::matmul
