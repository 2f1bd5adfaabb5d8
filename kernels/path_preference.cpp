#include "kernels/path_preference.hpp"

namespace archbench::kernels {

const std::vector<PathPreference>& path_preferences() {
  static const std::vector<PathPreference> table{
      {"matmul",
       {DType::F16, DType::BF16},
       {{"gemm_wgmma", std::nullopt}, {"gemm_tc", std::nullopt}, {"gemm_simt", DType::F32}},
       "gemm_cublas"},
      // FP8 has the Hopper kernel alone among the own paths: elsewhere a framework runs cuBLASLt's
      // FP8 GEMM (the twin) or falls back to bf16.
      {"matmul", {DType::E4M3}, {{"gemm_wgmma", std::nullopt}}, "gemm_cublas"},
      // No conv line yet: in this order conv_wgmma would be taken on Hopper, and it still runs
      // slower than conv_tc at 4 of the 7 shapes it covers (docs/kernel-choices.md, "conv_wgmma:
      // the Hopper convolution").
      {"attention",
       {DType::F16, DType::BF16},
       {{"flash_wgmma", std::nullopt}, {"flash_tc", std::nullopt}, {"flash_simt", DType::F32}},
       "sdpa_cudnn"},
  };
  return table;
}

}  // namespace archbench::kernels
