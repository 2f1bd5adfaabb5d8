// The cuDNN twins' fallback: cudnnConvolutionForward (the legacy API, still in cuDNN 9) on one
// shape, layout and dtype, with the algorithm picked once by cuDNN's v7 heuristics. Used only when
// no engine of cuDNN's backend API qualifies (conv_cudnn_graph.hpp), so that a twin keeps working
// on every device this path served. The legacy API does not say which engine or kernel cuDNN 9
// really runs for the algorithm: the same reported algorithm, math type and workspace can run at
// different speeds in different processes, which is why it is only the fallback.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "harness/ops/dtype.hpp"
#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_problem.hpp"

namespace archbench::kernels::conv {

// Descriptors for x, w (KRSC for NHWC, KCRS for NCHW) and y in `layout`; cross-correlation,
// padding and stride from `d`, no dilation, fp32 compute. Math mode by dtype: f16/bf16
// CUDNN_TENSOR_OP_MATH; f32 CUDNN_FMA_MATH (no TF32: strict fp32); tf32 CUDNN_DEFAULT_MATH, which
// permits TF32 tensor cores on CC >= 8.0. The algorithm is the first one that
// cudnnGetConvolutionForwardAlgorithm_v7 ranks, reports as supported, fits `max_workspace_bytes`
// and respects the math mode (strict f32 never takes a tensor-op result; tf32 prefers one), as
// PyTorch does with cudnn.benchmark off. The workspace is allocated here, once. This legacy
// heuristic's choice can be far slower than what PyTorch runs through cuDNN's graph heuristics, and
// cudnnFindConvolutionForwardAlgorithm, tried instead, reported no successful algorithm at the
// check shapes and crashed the timing worker (docs/kernel-choices.md, "conv_cudnn: the legacy
// fallback"). implementation() reads "legacy cudnnConvolutionForward: no
// backend engine qualified (<why_backend_not>): IMPLICIT_PRECOMP_GEMM, tensor-op math, ...". Needs
// the device (cuDNN calls); throws LibraryError on a cuDNN failure.
[[nodiscard]] std::unique_ptr<ConvLauncher> make_cudnn_legacy_launcher(const ConvDims& d, ConvLayout layout,
                                                                       DType math, size_t max_workspace_bytes,
                                                                       std::string why_backend_not);

}  // namespace archbench::kernels::conv
