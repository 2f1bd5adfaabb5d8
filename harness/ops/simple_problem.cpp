#include "harness/ops/simple_problem.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace archbench {

SimpleProblem::SimpleProblem(const SimpleShape& shape, double tolerance, ProblemScale scale, uint64_t seed)
    : shape_(shape.name), launch_(shape.launch), reference_(shape.reference), tolerance_(tolerance) {
  std::mt19937_64 rng(seed);
  const bool keep = scale == ProblemScale::Check;
  host_inputs_.resize(keep ? shape.inputs.size() : 0);
  for (size_t i = 0; i < shape.inputs.size(); ++i) {
    const TensorShape& in = shape.inputs[i];
    inputs_.push_back(random_input(in.dtype, in.numel, rng, keep ? &host_inputs_[i] : nullptr, in.lo, in.hi));
  }
  output_ = allocate(shape.output.dtype, shape.output.numel);
}

SimpleOperator::SimpleOperator(OperatorSpec spec, SimpleShape bench, SimpleShape check, std::vector<KernelRef> kernels)
    : Operator(std::move(spec)), bench_(std::move(bench)), check_(std::move(check)), kernels_(std::move(kernels)) {
  if (bench_.name != this->spec().shape) {
    throw std::logic_error("SimpleOperator " + this->spec().name + ": benchmark shape " + bench_.name +
                           " is not the spec's " + this->spec().shape);
  }
}

SimpleOperator::SimpleOperator(OperatorSpec spec, std::vector<TensorShape> inputs, TensorShape output,
                               SimpleLaunch launch, SimpleReference reference, std::vector<KernelRef> kernels)
    : Operator(std::move(spec)),
      bench_{this->spec().shape, std::move(inputs), output, std::move(launch), std::move(reference)},
      check_(bench_),
      kernels_(std::move(kernels)) {}

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
