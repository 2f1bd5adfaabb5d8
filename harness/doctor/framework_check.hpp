// The workload layer's framework check [framework]: the user's PyTorch (python3's, or --python's)
// run through archbench's framework probe at the quick tier: per op the backend, the image and the
// result against float64, no timing (docs/framework.md). What a smoke test of archbench's own
// kernels cannot say: whether the user's framework runs on this device.
#pragma once

#include <string>
#include <vector>

#include "harness/doctor/checklist.hpp"
#include "harness/framework/probe_answer.hpp"

namespace archbench::doctor {

struct FrameworkCheckInput {
  std::string python;          // the interpreter probed
  std::string not_run;         // why the probe gave no answer (no interpreter, deadline, unreadable); empty if it did
  framework::ProbeAnswer answer;
  std::vector<framework::OpVerdict> verdicts;  // verdicts[i] judges answer.ops[i]
};

void check_framework(const FrameworkCheckInput& in, Checklist& out);

}  // namespace archbench::doctor
