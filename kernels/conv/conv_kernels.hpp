// Hand-written convolution kernels: implicit GEMM over NHWC activations and a KRSC filter,
// writing an NHWC output (layouts in conv_dims.hpp). The GEMM view:
//
//   y[m, k] = sum over j of A[m, j] * B[k, j],   m = (n, p, q) < N*P*Q,  k < K,  j = (r, s, c) < R*S*C
//
// A is never formed: a block gathers A[m, (r, s, c..c+7)] straight from x[n, p*stride-pad+r,
// q*stride-pad+s, c..c+7] (zeros for taps on the padding), and B is the KRSC filter as it lies
// in memory (row k, contiguous j). Accumulation is fp32.
//
// Requirements (std::invalid_argument otherwise, see validate_own_conv): C % 4 == 0, tensors of
// fewer than 2^31 elements; x, w, y and the workspace 16-byte aligned (cudaMalloc gives 256).
// Launch functions enqueue on `stream`, never synchronize, and throw CudaError on a failed
// launch.
//
// Plain C++: this header is includable from host code compiled by g++.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "harness/ops/dtype.hpp"
#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_plan.hpp"

namespace archbench::kernels::conv {

// ---- Tensor cores (mma.sync m16n8k16, f16 or bf16 in, fp32 accumulate, output rounded to the
// input type). Needs compute capability 8.0 (cp.async, bf16 mma); code built for an older
// target writes quiet NaN instead, so a correctness check fails visibly.

// The tile variant for `d` (tensor_core_tiles; its small-device variant where the current device
// gives a block too little shared memory) and the split of the reduction that fills the device
// once (its SM count and the variant's occupancy). A plan made for one shape serves any shape
// with the same C, R, S and tile variant (the check shape of a benchmark).
[[nodiscard]] ConvPlan plan_conv_tc(DType dtype, const ConvDims& d);
// The same for a given variant (plan_with_tile of one of kTensorCoreTiles), for benchmarks that
// compare variants; std::invalid_argument for a tile that is not built.
[[nodiscard]] ConvPlan plan_conv_tc(DType dtype, const ConvDims& d, const ConvPlan& tiles);
// dtype is F16 or BF16; `workspace` holds plan.workspace_bytes(d) bytes (nullptr when 0).
void launch_conv_tc(DType dtype, const void* x, const void* w, void* y, float* workspace, const ConvDims& d,
                    const ConvPlan& plan, cudaStream_t stream);
// The __global__ function of one tile variant, and its name ("conv_tc_f16_m128_n160_k64_sk2_c8").
[[nodiscard]] const void* conv_tc_kernel(DType dtype, const ConvPlan& tiles);
[[nodiscard]] std::string conv_tc_kernel_name(DType dtype, const ConvPlan& tiles);

// ---- fp32 on the SIMT cores (any compute capability): 128 x 128 block tiles, 8x8 outputs per
// thread, register-staged double buffering.
[[nodiscard]] ConvPlan plan_conv_simt(const ConvDims& d);
void launch_conv_simt_f32(const float* x, const float* w, float* y, float* workspace, const ConvDims& d,
                          const ConvPlan& plan, cudaStream_t stream);
[[nodiscard]] const void* conv_simt_f32_kernel();

// ---- Split-K: y[i] = sum over z < splits of partial[z * count + i], rounded to dtype (F32,
// F16 or BF16). Launched by the two launch functions above when plan.splits > 1.
void launch_conv_splitk_reduce(DType dtype, const float* partial, void* y, size_t count, int splits,
                               cudaStream_t stream);
[[nodiscard]] const void* conv_splitk_reduce_kernel(DType dtype);

}  // namespace archbench::kernels::conv
