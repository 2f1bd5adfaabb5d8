#include "kernels/conv/conv_engine_choice.hpp"

#include <algorithm>

namespace archbench::kernels::conv {
namespace {

bool has(const std::vector<cudnnBackendNumericalNote_t>& notes, cudnnBackendNumericalNote_t n) {
  return std::find(notes.begin(), notes.end(), n) != notes.end();
}

bool has(const std::vector<cudnnBackendBehaviorNote_t>& notes, cudnnBackendBehaviorNote_t n) {
  return std::find(notes.begin(), notes.end(), n) != notes.end();
}

}  // namespace

std::string notes_verdict(const EngineCandidate& c, DType math) {
  if (has(c.behavior_notes, CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION)) return "runtime compilation";
  if (has(c.numerical_notes, CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS)) return "down-converts its inputs";
  if (has(c.numerical_notes, CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION)) {
    return "reduces in less than fp32";
  }
  if (math == DType::F32 && has(c.numerical_notes, CUDNN_NUMERICAL_NOTE_TENSOR_CORE)) {
    return "tensor core (f32 is FMA only)";
  }
  return {};
}

EngineChoice choose_engine(const std::vector<EngineCandidate>& candidates, DType math, int64_t max_workspace_bytes,
                           const std::function<PlanOutcome(size_t)>& finalize) {
  const size_t n = candidates.size();
  std::vector<std::optional<PlanOutcome>> outcomes(n);  // each candidate is finalized at most once
  std::vector<std::string> why(n);
  // tf32 takes a tensor-core engine when one qualifies (pass 0), as the legacy twin did.
  const int first_pass = math == DType::TF32 ? 0 : 1;
  for (int pass = first_pass; pass < 2; ++pass) {
    for (size_t i = 0; i < n; ++i) {
      const EngineCandidate& c = candidates[i];
      why[i] = notes_verdict(c, math);
      if (!why[i].empty()) continue;
      if (pass == 0 && !has(c.numerical_notes, CUDNN_NUMERICAL_NOTE_TENSOR_CORE)) continue;
      if (!outcomes[i]) outcomes[i] = finalize(i);
      const PlanOutcome& o = *outcomes[i];
      if (!o.finalized) {
        why[i] = "plan refused (" + o.refusal + ")";
      } else if (o.workspace_bytes > max_workspace_bytes) {
        why[i] = "workspace " + std::to_string(o.workspace_bytes) + " B over the " +
                 std::to_string(max_workspace_bytes) + " B cap";
      } else {
        return EngineChoice{i, {}};
      }
    }
  }
  EngineChoice none;
  if (n == 0) none.reason = "no engine config";
  for (size_t i = 0; i < n; ++i) {
    if (!none.reason.empty()) none.reason += "; ";
    none.reason += "#" + std::to_string(i) + " engine " + std::to_string(candidates[i].global_index) + ": " + why[i];
  }
  return none;
}

}  // namespace archbench::kernels::conv
