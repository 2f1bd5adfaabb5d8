#include "kernels/path_preference.hpp"

namespace archbench::kernels {

const std::vector<PathPreference>& path_preferences() {
  static const std::vector<PathPreference> table{
      {"matmul", {"f16", "bf16"}, {{"gemm_wgmma", ""}, {"gemm_tc", ""}, {"gemm_simt", "f32"}}, "gemm_cublas"},
      // FP8 has the Hopper kernel alone: elsewhere a framework falls back to cuBLASLt or to bf16.
      {"matmul", {"e4m3"}, {{"gemm_wgmma", ""}}, "gemm_cublas"},
      {"attention", {"f16", "bf16"}, {{"flash_wgmma", ""}, {"flash_tc", ""}, {"flash_simt", "f32"}}, "sdpa_cudnn"},
  };
  return table;
}

}  // namespace archbench::kernels
