// cuDNN's fused scaled-dot-product attention (forward, no mask, f16/bf16), built through the
// cuDNN backend (graph) API directly: the cuDNN frontend is a header-only library this project
// does not depend on.
//
// Two graphs are tried, in this order:
//   1. "composite": the operation graph the cuDNN frontend builds for SDPA on cuDNN < 9.21, which
//      the engine heuristics map to cuDNN's fused flash-attention engines:
//        S = matmul(Q, Kᵀ) -> S·scale (pointwise MUL, scale passed by value)
//          -> M = max_rows(S) (reduction) -> exp(S - M) -> Z = sum_rows (reduction)
//          -> P = exp / Z (pointwise DIV, P in the I/O type)        [+ stats = M + log Z, virtual]
//          -> O = matmul(P, V)
//      Kᵀ is K's own memory seen as [B,H,d,Nk] (strides swapped): no copy.
//   2. "unified": the single CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR operation (cuDNN 9.13+).
// Each graph goes through the engine heuristics (mode A); engine configs are tried in the
// heuristics' order until one finalizes into an execution plan. When neither graph yields a plan,
// the LibraryError names, for each graph, the step that failed (for example "composite graph:
// execution plan: finalize (engine config 0 of 3)") with its cuDNN status and cuDNN's own message.
#pragma once

#include <cstddef>

#include "kernels/attention/attention_problem.hpp"

namespace archbench::kernels::attention {

enum class SdpaGraph { Composite, Unified };

// Builds and finalizes one graph's tensors, operations and operation graph: this part needs
// neither a GPU nor a cuDNN handle, so a machine without a GPU can check it (engine heuristics
// and plans need the device). Returns the number of operations; throws like the launch does.
[[nodiscard]] size_t build_sdpa_graph_without_device(const AttentionDims& dims, DType dtype, SdpaGraph graph);

// Builds the execution plan and its workspace for one shape (so in make_problem); the returned
// launch only sets the stream and executes. dtype: f16 or bf16 (std::invalid_argument otherwise).
[[nodiscard]] AttentionLaunch make_sdpa_cudnn_launch(const AttentionDims& dims, DType dtype);

}  // namespace archbench::kernels::attention
