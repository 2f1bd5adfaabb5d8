#include "kernels/norm/groupnorm_operator.hpp"

#include <cstddef>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/util/cuda_check.hpp"
#include "harness/util/cuda_raii.hpp"
#include "kernels/norm/norm_reference.hpp"

namespace archbench::kernels::norm {
namespace {

class GroupNormProblem final : public Problem {
 public:
  // One shape at both scales; at the benchmark scale the inputs are drawn on the device.
  GroupNormProblem(std::string shape_name, DType dtype, GroupNormShape shape, float eps, ProblemScale scale,
                   uint64_t seed)
      : shape_name_(std::move(shape_name)), shape_(shape), eps_(eps), dtype_(dtype) {
    const size_t numel = static_cast<size_t>(shape.n) * shape.c * shape.hw;
    std::mt19937_64 rng(seed);
    const bool keep = scale == ProblemScale::Check;
    dx_ = random_input(dtype, numel, rng, keep ? &x_ : nullptr);
    dgamma_ = random_input(dtype, static_cast<size_t>(shape.c), rng, keep ? &gamma_ : nullptr, 0.5, 1.5);
    dbeta_ = random_input(dtype, static_cast<size_t>(shape.c), rng, keep ? &beta_ : nullptr, -0.5, 0.5);
    dy_ = allocate(dtype, numel);
    plan_ = plan_groupnorm(dtype, shape);
    workspace_ = DeviceBuffer(plan_.workspace_bytes);
    // The arrival counters start at zero; the split kernel never resets them.
    if (plan_.workspace_bytes > 0) {
      ARCHBENCH_CUDA_CHECK(cudaMemset(workspace_.get(), 0, plan_.workspace_bytes));
      finish_legacy_stream();
    }
  }

  [[nodiscard]] std::string shape() const override { return shape_name_; }
  void poison_output() override { poison(dy_); }
  void launch(cudaStream_t stream) override {
    launch_groupnorm(plan_, dx_.buffer.get(), dgamma_.buffer.get(), dbeta_.buffer.get(), dy_.buffer.get(),
                     workspace_.get(), eps_, stream);
  }
  [[nodiscard]] CheckResult check() const override {
    require_check_scale(!x_.values.empty(), "GroupNormProblem");
    const GroupNormDims d{static_cast<size_t>(shape_.n), static_cast<size_t>(shape_.c), static_cast<size_t>(shape_.hw),
                          static_cast<size_t>(shape_.groups), shape_.layout == GroupNormLayout::NHWC};
    return compare_to_reference(download(dy_), groupnorm_reference(x_.values, gamma_.values, beta_.values, d, eps_, shape_.silu),
                                tolerance(dtype_));
  }
  [[nodiscard]] CheckResult check_finite() const override { return check_all_finite(dy_); }

 private:
  std::string shape_name_;
  GroupNormShape shape_;
  float eps_;
  DType dtype_;
  HostTensor x_, gamma_, beta_;  // kept only at the check scale
  DeviceTensor dx_, dgamma_, dbeta_, dy_;
  GroupNormPlan plan_;
  DeviceBuffer workspace_;
};

}  // namespace

std::vector<KernelRef> GroupNormOperator::kernels() const {
  const std::string layout = shape_.layout == GroupNormLayout::NHWC ? "nhwc" : "nchw";
  const std::string act = shape_.silu ? "_silu" : "";
  return {{"groupnorm_" + layout + "_split" + act, groupnorm_split_kernel(spec().dtype, shape_.layout, shape_.silu)},
          {"groupnorm_" + layout + "_generic" + act, groupnorm_generic_kernel(spec().dtype, shape_.layout, shape_.silu)}};
}

std::unique_ptr<Problem> GroupNormOperator::make_problem(ProblemScale scale, uint64_t seed) const {
  return std::make_unique<GroupNormProblem>(spec().shape, spec().dtype, shape_, eps_, scale, seed);
}

}  // namespace archbench::kernels::norm
