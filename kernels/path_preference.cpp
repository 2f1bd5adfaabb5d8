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
      {"matmul", {DType::E4M3, DType::E5M2}, {{"gemm_wgmma", std::nullopt}}, "gemm_cublas"},
      // Convolution in NHWC: conv_wgmma covers every shape but the 4-channel conv_in, where
      // conv_tc is the Hopper path too (docs/kernel-choices.md, "conv_wgmma: the Hopper convolution").
      {"conv", {DType::F16, DType::BF16}, {{"conv_wgmma", std::nullopt}, {"conv_tc", std::nullopt}}, "conv_cudnn_nhwc"},
      {"attention",
       {DType::F16, DType::BF16},
       {{"flash_wgmma", std::nullopt}, {"flash_tc", std::nullopt}, {"flash_simt", DType::F32}},
       "sdpa_cudnn"},
      // FP8 attention, as FP8 GEMM: the Hopper kernel alone; cuDNN's FP8 SDPA is the twin.
      {"attention", {DType::E4M3, DType::E5M2}, {{"flash_wgmma", std::nullopt}}, "sdpa_cudnn"},
  };
  return table;
}

}  // namespace archbench::kernels
