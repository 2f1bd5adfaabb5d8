#include "kernels/path_preference.hpp"

namespace archbench::kernels {

const std::vector<PathPreference>& path_preferences() {
  static const std::vector<PathPreference> table{
      {"matmul",
       {DType::F16, DType::BF16},
       {{"gemm_wgmma", std::nullopt}, {"gemm_tc", std::nullopt}, {"gemm_simt", DType::F32}},
       "gemm_cublas"},
      // FP8 has the Hopper kernel alone: elsewhere a framework falls back to cuBLASLt or to bf16.
      {"matmul", {DType::E4M3}, {{"gemm_wgmma", std::nullopt}}, "gemm_cublas"},
      {"attention",
       {DType::F16, DType::BF16},
       {{"flash_wgmma", std::nullopt}, {"flash_tc", std::nullopt}, {"flash_simt", DType::F32}},
       "sdpa_cudnn"},
  };
  return table;
}

}  // namespace archbench::kernels
