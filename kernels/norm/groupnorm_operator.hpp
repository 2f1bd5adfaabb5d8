// The GroupNorm operators: a Problem of their own because the split kernels need a workspace
// (arrival counters and partial statistics) sized for the device, allocated with the problem.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "harness/ops/operator.hpp"
#include "kernels/norm/norm_kernels.hpp"

namespace archbench::kernels::norm {

class GroupNormOperator final : public Operator {
 public:
  GroupNormOperator(OperatorSpec spec, GroupNormShape shape, float eps)
      : Operator(std::move(spec)), shape_(shape), eps_(eps) {}
  // The split kernel and the generic one: which runs depends on the device (plan_groupnorm).
  [[nodiscard]] std::vector<KernelRef> kernels() const override;
  [[nodiscard]] std::unique_ptr<Problem> make_problem(ProblemScale scale, uint64_t seed) const override;

 private:
  GroupNormShape shape_;
  float eps_;
};

}  // namespace archbench::kernels::norm
