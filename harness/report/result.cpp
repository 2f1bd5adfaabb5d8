#include "harness/report/result.hpp"

namespace archbench {

bool OperatorResult::failed() const {
  if (image.status == "unsupported") return false;
  if (!error.empty() || !fault.empty() || !image.agrees) return true;
  if (image.status != "sass" && image.status != "ptx-jit" && image.status != "library") return true;
  return !correctness || !correctness->passed || !correctness->bench_shape_finite;
}

}  // namespace archbench
