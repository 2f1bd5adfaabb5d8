// The "math" attention path, as PyTorch's math backend does it in three steps: S = Q Kᵀ
// (cuBLAS strided-batched GEMM, fp32 scores), P = softmax(S / sqrt(d)) (own row kernel, fp32
// math, P in the storage type), O = P V (cuBLAS strided-batched GEMM). Materializes S and P:
// B·H·Nq·Nk·(4 + element size) bytes of workspace, allocated when the launch is made.
#pragma once

#include "kernels/attention/attention_problem.hpp"

namespace archbench::kernels::attention {

// f32 (pure FP32 GEMMs, no TF32), f16, bf16 (fp32 accumulation).
[[nodiscard]] AttentionLaunch make_math_launch(const AttentionDims& dims, DType dtype);

}  // namespace archbench::kernels::attention
