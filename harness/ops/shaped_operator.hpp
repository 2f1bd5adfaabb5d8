// An operator at one shape whose problems are a Problem type made from the shape's dims, the
// operator's dtype and what launches its kernel (GemmProblem, AttentionProblem), at either scale.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "harness/ops/operator.hpp"

namespace archbench {

// P is made as P(dims, dtype, launch, scale, seed); `kernels` are what the operator launches.
template <typename P, typename Dims, typename Launch>
class ShapedOperator final : public Operator {
 public:
  ShapedOperator(OperatorSpec spec, Dims dims, Launch launch, std::vector<KernelRef> kernels)
      : Operator(std::move(spec)), dims_(dims), launch_(std::move(launch)), kernels_(std::move(kernels)) {}
  [[nodiscard]] std::vector<KernelRef> kernels() const override { return kernels_; }
  [[nodiscard]] std::unique_ptr<Problem> make_problem(ProblemScale scale, uint64_t seed) const override {
    return std::make_unique<P>(dims_, spec().dtype, launch_, scale, seed);
  }

 private:
  Dims dims_;
  Launch launch_;
  std::vector<KernelRef> kernels_;
};

}  // namespace archbench
