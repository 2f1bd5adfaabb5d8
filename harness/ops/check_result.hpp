// An operator's output judged against its reference (Problem::check), and the run's correctness
// result that carries it (result.hpp).
#pragma once

#include <cstddef>

namespace archbench {

struct CheckResult {
  bool passed = false;
  double rel_error = 0;      // ||got - ref||_2 / ||ref||_2
  double max_abs_error = 0;
  double tolerance = 0;
  size_t non_finite = 0;     // NaN/Inf in the output (never passes)
  size_t elements = 0;
};

}  // namespace archbench
