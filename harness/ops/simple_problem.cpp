#include "harness/ops/simple_problem.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace archbench {

SimpleProblem::SimpleProblem(std::string shape, const std::vector<TensorShape>& inputs, TensorShape output,
                             SimpleLaunch launch, SimpleReference reference, double tolerance, ProblemScale scale,
                             uint64_t seed)
    : shape_(std::move(shape)), launch_(std::move(launch)), reference_(std::move(reference)), tolerance_(tolerance) {
  std::mt19937_64 rng(seed);
  const bool keep = scale == ProblemScale::Check;
  host_inputs_.resize(keep ? inputs.size() : 0);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorShape& in = inputs[i];
    inputs_.push_back(random_input(in.dtype, in.numel, rng, keep ? &host_inputs_[i] : nullptr, in.lo, in.hi));
  }
  output_ = allocate(output.dtype, output.numel);
}

OperatorSpec memory_bound_spec(std::string family, std::string name, DType dtype, std::string shape, std::string model,
                               double bytes) {
  OperatorSpec s;
  s.family = std::move(family);
  s.name = std::move(name);
  s.dtype = dtype;
  s.shape = std::move(shape);
  s.model = std::move(model);
  s.impl = Impl::Own;
  s.min_cc = {7, 5};
  s.flops = 0;
  s.bytes = bytes;
  return s;
}

CheckResult SimpleProblem::check() const {
  require_check_scale(!host_inputs_.empty(), "SimpleProblem");
  std::vector<std::vector<double>> in;
  for (const auto& h : host_inputs_) in.push_back(h.values);
  return compare_to_reference(download(output_), reference_(in), tolerance_);
}

CheckResult SimpleProblem::check_finite() const { return check_all_finite(output_); }

}  // namespace archbench
