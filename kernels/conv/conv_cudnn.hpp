// The cuDNN twins: cudnnConvolutionForward (the legacy API, still in cuDNN 9) on one shape,
// layout and dtype, with the algorithm picked once by cuDNN's heuristics.
#pragma once

#include <memory>

#include "harness/ops/dtype.hpp"
#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_problem.hpp"

namespace archbench::kernels::conv {

// Descriptors for x, w (KRSC for NHWC, KCRS for NCHW) and y in `layout`; cross-correlation,
// padding and stride from `d`, no dilation, fp32 compute. Math mode by dtype: f16/bf16
// CUDNN_TENSOR_OP_MATH; f32 CUDNN_FMA_MATH (no TF32: strict fp32); tf32 CUDNN_DEFAULT_MATH, which
// permits TF32 tensor cores on CC >= 8.0. The algorithm is the fastest one that
// cudnnFindConvolutionForwardAlgorithm measures on this device, among those that succeed, fit a
// 512 MiB workspace and respect the math mode (strict f32 never takes a tensor-op result; tf32
// prefers one). Measured, not ranked by the legacy heuristic: on the H200 with cuDNN 9.14 the
// v7 heuristic's first choice was up to 8x slower than what PyTorch 2.11 runs at the same shape
// (1x1 conv, f16, NHWC: 183 us vs 22 us). The workspace is allocated here, once. Needs the device
// (cuDNN calls); throws LibraryError on a cuDNN failure.
[[nodiscard]] std::unique_ptr<ConvLauncher> make_cudnn_launcher(const ConvDims& d, ConvLayout layout, DType math);

}  // namespace archbench::kernels::conv
