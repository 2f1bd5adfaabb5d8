#include "harness/ops/simple_problem.hpp"

#include <algorithm>
#include <cmath>

namespace archbench {

SimpleProblem::SimpleProblem(std::string shape, const std::vector<TensorShape>& inputs, TensorShape output,
                             SimpleLaunch launch, SimpleReference reference, double tolerance, uint64_t seed)
    : shape_(std::move(shape)), launch_(std::move(launch)), reference_(std::move(reference)), tolerance_(tolerance) {
  std::mt19937_64 rng(seed);
  for (const auto& in : inputs) {
    host_inputs_.push_back(random_tensor(in.dtype, in.numel, rng, in.lo, in.hi));
    inputs_.push_back(upload(host_inputs_.back()));
  }
  output_ = allocate(output.dtype, output.numel);
}

CheckResult SimpleProblem::check() const {
  std::vector<std::vector<double>> in;
  for (const auto& h : host_inputs_) in.push_back(h.values);
  return compare_to_reference(download(output_), reference_(in), tolerance_);
}

CheckResult SimpleProblem::check_finite() const { return check_all_finite(output_); }

}  // namespace archbench
