#include "kernels/conv/conv_problem.hpp"

#include <random>
#include <stdexcept>
#include <utility>

#include "kernels/conv/conv_reference.hpp"

namespace archbench::kernels::conv {

ConvProblem::ConvProblem(const ConvDims& bench, const ConvDims& check, ConvLayout layout, DType math,
                         const MakeConvLauncher& make, ProblemScale scale, uint64_t seed)
    : dims_(scale == ProblemScale::Check ? check : bench), layout_(layout), math_(math) {
  std::mt19937_64 rng(seed);
  const DType storage = storage_dtype(math);
  if (scale == ProblemScale::Check) {
    host_x_ = random_tensor(storage, dims_.input_numel(), rng);
    host_w_ = random_tensor(storage, dims_.filter_numel(), rng);
    if (layout == ConvLayout::NCHW) {  // the same values as the NHWC twin sees, in its order
      host_x_.values = channels_last_to_first(host_x_.values, dims_.N, dims_.H, dims_.W, dims_.C);
      host_w_.values = channels_last_to_first(host_w_.values, dims_.K, dims_.R, dims_.S, dims_.C);
    }
    x_ = upload(host_x_);
    w_ = upload(host_w_);
  } else {  // too large for the CPU reference: drawn on the device, in either layout
    x_ = random_input(storage, dims_.input_numel(), rng, nullptr);
    w_ = random_input(storage, dims_.filter_numel(), rng, nullptr);
  }
  y_ = allocate(storage, dims_.output_numel());
  launcher_ = make(dims_, bench);
  launcher_->bind(x_, w_, y_);
}

CheckResult ConvProblem::check() const {
  require_check_scale(!host_x_.values.empty(), "ConvProblem");
  return compare_to_reference(download(y_), reference_conv(host_x_.values, host_w_.values, dims_, layout_),
                              tolerance(math_));
}

CheckResult ConvProblem::check_finite() const { return check_all_finite(y_); }

}  // namespace archbench::kernels::conv
