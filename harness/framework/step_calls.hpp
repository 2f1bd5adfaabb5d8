// A denoiser step's framework calls (tools/framework/denoiser_steps.py: the profiler's GPU time per
// call and input shapes), named by the framework op archbench measures at the same op, dtype and
// shape, so a user sees which of the measured ops their model spends its GPU time in.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/framework/framework_op.hpp"

namespace archbench::framework {

struct StepCall {
  std::string op;  // the probe's name: conv2d, linear, sdpa, group_norm, layer_norm, rms_norm, silu, gelu
  std::vector<std::vector<long long>> shapes;  // the call's input shapes, as the profiler records them
  std::optional<int> stride;                   // conv2d, when the profiler recorded it
  double us = 0;                               // GPU time of all calls with these shapes in the step
  int calls = 0;
};

// The call's dims in archbench's vocabulary ({M, N, K} of a linear layer, {B, C, H, W, K, R} of a
// conv2d, ...); empty when its shapes are not the op's.
[[nodiscard]] std::map<std::string, int> call_dims(const StepCall& call);

// The framework op of `ops` that is this call: the same op (a linear layer is a matmul), dtype and
// dims; a conv2d without a recorded stride is taken as stride 1; NCHW before channels_last, as
// the step runs the model's default layout. nullptr when archbench has no op at that shape.
[[nodiscard]] const FrameworkOp* framework_op_of(const StepCall& call, DType dtype, const std::vector<FrameworkOp>& ops);

}  // namespace archbench::framework
