// Which engine config the cuDNN convolution twins run, out of what cuDNN's engine heuristics
// (mode A) offer: a pure function of the candidates, so that the same heuristic list gives the
// same engine in every process, and so that it is tested without a GPU.
//
// The rule, in the heuristics' order: the first candidate that
//   (a) finalizes into an execution plan,
//   (b) needs at most the workspace cap,
//   (c) does not compile its kernel at run time (CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION: a kernel
//       built by NVRTC for this process is one more thing that can differ between processes),
//   (d) keeps to the math the operator declares, with the legacy twin's meaning (conv_cudnn_legacy):
//       f32   strict fp32 FMA: no tensor-core engine (CUDNN_NUMERICAL_NOTE_TENSOR_CORE on fp32
//             data is TF32) - the legacy CUDNN_FMA_MATH;
//       tf32  TF32 tensor cores allowed and preferred: a TENSOR_CORE candidate first, any other
//             qualifying one only when no tensor-core candidate qualifies - the legacy
//             CUDNN_DEFAULT_MATH with its tensor-op-first pass;
//       f16, bf16  any engine, in heuristic order - the legacy CUDNN_TENSOR_OP_MATH, whose
//             heuristic results were taken whatever their math type.
//       For every dtype an engine that converts its inputs to a narrower type
//       (DOWN_CONVERT_INPUTS) or reduces in less than the declared fp32 compute type
//       (REDUCED_PRECISION_REDUCTION) contradicts the declared math: the legacy modes allowed
//       neither (no CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION, fp32 compute type).
// (c) and (d) read only the engine's notes, so they are decided before (a): a candidate they
// reject is never finalized (finalizing a runtime-compiled engine compiles it).
#pragma once

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/ops/dtype.hpp"

namespace archbench::kernels::conv {

// One engine config as the heuristics return it (read in conv_cudnn_graph.cpp).
struct EngineCandidate {
  int64_t global_index = -1;
  std::vector<cudnnBackendNumericalNote_t> numerical_notes;
  std::vector<cudnnBackendBehaviorNote_t> behavior_notes;
};

// What finalizing one candidate into an execution plan gave.
struct PlanOutcome {
  bool finalized = false;
  int64_t workspace_bytes = 0;
  std::string refusal;  // the cuDNN status when not finalized ("CUDNN_STATUS_NOT_SUPPORTED")
};

// Why the candidate's notes disqualify it for `math` ("runtime compilation", "tensor core (f32 is
// FMA only)"), or "" when they do not.
[[nodiscard]] std::string notes_verdict(const EngineCandidate& c, DType math);

struct EngineChoice {
  std::optional<size_t> chosen;  // index into the candidates (the heuristic rank, from 0)
  // When none is chosen: why, candidate by candidate in heuristic order ("no engine config" when
  // there were none), e.g. "#0 engine 12: runtime compilation; #1 engine 3: workspace 2147483648 B
  // over the 536870912 B cap; #2 engine 7: plan refused (CUDNN_STATUS_NOT_SUPPORTED)".
  std::string reason;
};

// The rule above. `finalize(i)` finalizes candidate i; it is called at most once per candidate,
// only for candidates whose notes qualify, in heuristic order (for tf32: over the tensor-core
// candidates first, then over the others), and never after one qualifies.
[[nodiscard]] EngineChoice choose_engine(const std::vector<EngineCandidate>& candidates, DType math,
                                         int64_t max_workspace_bytes,
                                         const std::function<PlanOutcome(size_t)>& finalize);

}  // namespace archbench::kernels::conv
