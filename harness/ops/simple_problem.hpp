// A problem made of input tensors and one output, a launch function and a float64 reference:
// enough for the memory-bound families (norms, elementwise). An operator checks either its
// benchmark shape itself or a smaller check shape that keeps what the check needs (the row length
// of a norm); the benchmark scale draws its inputs on the device and keeps no host copy.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/ops/operator.hpp"

namespace archbench {

struct TensorShape {
  DType dtype = DType::F32;
  size_t numel = 0;
  double lo = -1.0, hi = 1.0;  // the range random inputs are drawn from
};

using SimpleLaunch = std::function<void(const std::vector<DeviceTensor>& inputs, DeviceTensor& output, cudaStream_t)>;
using SimpleReference = std::function<std::vector<double>(const std::vector<std::vector<double>>& inputs)>;

// One shape of a simple problem: its name in results, its tensors, and the launch and reference,
// which capture the shape's dimensions.
struct SimpleShape {
  std::string name;
  std::vector<TensorShape> inputs;
  TensorShape output;
  SimpleLaunch launch;
  SimpleReference reference;
};

class SimpleProblem final : public Problem {
 public:
  SimpleProblem(const SimpleShape& shape, double tolerance, ProblemScale scale, uint64_t seed);
  [[nodiscard]] std::string shape() const override { return shape_; }
  void poison_output() override { poison(output_); }
  void launch(cudaStream_t stream) override { launch_(inputs_, output_, stream); }
  [[nodiscard]] CheckResult check() const override;
  [[nodiscard]] CheckResult check_finite() const override;

 private:
  std::string shape_;
  std::vector<HostTensor> host_inputs_;  // kept only at the check scale
  std::vector<DeviceTensor> inputs_;
  DeviceTensor output_;
  SimpleLaunch launch_;
  SimpleReference reference_;
  double tolerance_;
};

// The spec of a memory-bound operator of this project (own kernel, any CC nvcc 13 builds): no FLOP
// count, so its roofline bound is `bytes` over the measured bandwidth.
[[nodiscard]] OperatorSpec memory_bound_spec(std::string family, std::string name, DType dtype, std::string shape,
                                             std::string model, double bytes);

// An operator whose problem is a SimpleProblem: at the benchmark shape (spec().shape) for the
// Bench scale, and at `check` (by default the same shape) for the Check scale.
class SimpleOperator final : public Operator {
 public:
  SimpleOperator(OperatorSpec spec, SimpleShape bench, SimpleShape check, std::vector<KernelRef> kernels);
  // One shape at both scales.
  SimpleOperator(OperatorSpec spec, std::vector<TensorShape> inputs, TensorShape output, SimpleLaunch launch,
                 SimpleReference reference, std::vector<KernelRef> kernels);
  [[nodiscard]] std::vector<KernelRef> kernels() const override { return kernels_; }
  [[nodiscard]] std::unique_ptr<Problem> make_problem(ProblemScale scale, uint64_t seed) const override {
    return std::make_unique<SimpleProblem>(scale == ProblemScale::Check ? check_ : bench_, tolerance(spec().dtype),
                                           scale, seed);
  }

 private:
  SimpleShape bench_, check_;
  std::vector<KernelRef> kernels_;
};

}  // namespace archbench
