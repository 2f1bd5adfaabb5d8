#include "kernels/elementwise/rope_operator.hpp"

#include <algorithm>
#include <cstddef>
#include <random>
#include <stdexcept>
#include <string>

#include "kernels/elementwise/elementwise_kernels.hpp"
#include "kernels/elementwise/elementwise_reference.hpp"

namespace archbench::kernels::elementwise {
namespace {

class RopeProblem final : public Problem {
 public:
  // At the benchmark scale the input is drawn on the device.
  RopeProblem(std::string shape_name, DType dtype, RopeShape shape, ProblemScale scale, uint64_t seed)
      : shape_name_(std::move(shape_name)), shape_(shape), dtype_(dtype),
        table_(rope_table(flux_positions(static_cast<size_t>(shape.txt_tokens), static_cast<size_t>(shape.grid_rows),
                                         static_cast<size_t>(shape.grid_cols)),
                          shape.axes_dim, shape.theta)) {
    const size_t numel = static_cast<size_t>(shape.batch) * shape.heads * shape.tokens() * shape.dim();
    std::mt19937_64 rng(seed);
    dx_ = random_input(dtype, numel, rng, scale == ProblemScale::Check ? &x_ : nullptr);
    // (cos, sin) pairs rounded to fp32, as Flux stores its fp64-computed pe.
    HostTensor rot{DType::F32, std::vector<double>(2 * table_.cos.size())};
    for (size_t i = 0; i < table_.cos.size(); ++i) {
      rot.values[2 * i] = static_cast<float>(table_.cos[i]);
      rot.values[2 * i + 1] = static_cast<float>(table_.sin[i]);
    }
    drot_ = upload(rot);
    dy_ = allocate(dtype, numel);
  }

  [[nodiscard]] std::string shape() const override { return shape_name_; }
  void poison_output() override { poison(dy_); }
  void launch(cudaStream_t stream) override {
    launch_rope(dtype_, dx_.buffer.get(), drot_.as<const float>(), dy_.buffer.get(), shape_.batch, shape_.heads,
                shape_.tokens(), shape_.dim(), stream);
  }
  // Against the exact rotation (the fp64 table), so the fp32 rounding of the table counts as error.
  [[nodiscard]] CheckResult check() const override {
    require_check_scale(!x_.values.empty(), "RopeProblem");
    return compare_to_reference(download(dy_),
                                rope_reference(x_.values, table_, static_cast<size_t>(shape_.batch),
                                               static_cast<size_t>(shape_.heads)),
                                tolerance(dtype_));
  }
  [[nodiscard]] CheckResult check_finite() const override { return check_all_finite(dy_); }

 private:
  std::string shape_name_;
  RopeShape shape_;
  DType dtype_;
  RopeTable table_;
  HostTensor x_;  // kept only at the check scale
  DeviceTensor dx_, drot_, dy_;
};

}  // namespace

std::vector<KernelRef> RopeOperator::kernels() const {
  return {{"rope", rope_kernel(spec().dtype, shape_.heads, shape_.dim())}};
}

std::unique_ptr<Problem> RopeOperator::make_problem(ProblemScale scale, uint64_t seed) const {
  if (scale == ProblemScale::Bench) return std::make_unique<RopeProblem>(spec().shape, spec().dtype, shape_, scale, seed);
  // Checked on the text tokens and the first 8 rows of the image grid: every head (the kernel's
  // variant depends on heads x dim) and each of the three position axes.
  RopeShape check = shape_;
  check.grid_rows = std::min(check.grid_rows, 8);
  const std::string name = "B" + std::to_string(check.batch) + "_H" + std::to_string(check.heads) + "_N" +
                           std::to_string(check.tokens()) + "_D" + std::to_string(check.dim());
  return std::make_unique<RopeProblem>(name, spec().dtype, check, scale, seed);
}

}  // namespace archbench::kernels::elementwise
