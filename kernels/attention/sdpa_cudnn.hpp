// cuDNN's fused scaled-dot-product attention (forward, no mask), built with cudnn-frontend, the
// header-only C++ graph API NVIDIA ships over cuDNN's backend API and on which PyTorch's cuDNN
// attention is built: a graph of one SDPA node, which the frontend lowers to what the installed
// cuDNN offers (the composite graph of matmuls, pointwise operations and reductions that maps to
// cuDNN's fused flash-attention engines, or the single SDPA operation of newer cuDNN).
//
//   f16, bf16  Q, K, V and O in the dtype, fp32 softmax and accumulation (Graph::sdpa).
//   e4m3, e5m2 FP8 (Graph::sdpa_fp8, Hopper and newer): Q, K, V and O stored in the format with
//              the per-tensor scales of Transformer Engine's convention, which cuDNN's FP8 attention
//              takes: real = stored * descale for the inputs; the softmax's P is stored in the same
//              format as P * scale_s for P·V (descale_s = 1/scale_s); O is stored as O * scale_o.
//              The amax of P and of O are written as the kernel's by-products (the next step's
//              scales). The scales are fp8_attention_scales (attention_problem.hpp), in device memory.
//              The frontend takes FP8_E5M2 I/O as it takes e4m3 (on Hopper O is FP8 only); whether
//              the installed cuDNN has an engine for e5m2 is its answer when the plan is built.
//
// The plan is built in make_problem: heuristics (mode A), then the first engine config that builds
// into an execution plan. A failing step throws LibraryError("cuDNN", <frontend error code>) whose
// text names the problem, the step and the frontend's (and cuDNN's) message: a cuDNN without an
// engine for a graph (a format or head dim it lacks) makes that operator a library-error, saying so.
#pragma once

#include "kernels/attention/attention_problem.hpp"

namespace archbench::kernels::attention {

// Builds the execution plan and its workspace for one shape; the returned launch only sets the
// stream and executes. dtype: f16, bf16, e4m3 or e5m2 (std::invalid_argument otherwise).
[[nodiscard]] AttentionLaunch make_sdpa_cudnn_launch(const AttentionDims& dims, DType dtype);

}  // namespace archbench::kernels::attention
