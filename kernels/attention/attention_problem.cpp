#include "kernels/attention/attention_problem.hpp"

#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kernels/attention/attention_reference.hpp"

namespace archbench::kernels::attention {

AttentionProblem::AttentionProblem(AttentionDims dims, DType dtype, const AttentionLaunchFactory& factory,
                                   ProblemScale scale, uint64_t seed)
    : dims_(scale == ProblemScale::Check ? dims.check_dims() : dims), dtype_(dtype) {
  std::mt19937_64 rng(seed);
  const DType storage = storage_dtype(dtype);
  const bool keep = scale == ProblemScale::Check;  // the benchmark shape is too large for the CPU reference
  const bool fp8 = is_fp8(dtype);  // stored across the format's range, its descales applied on the GPU
  const double q_range = fp8 ? fp8_max(dtype) : kQueryRange;
  const double kv_range = fp8 ? fp8_max(dtype) : kKeyValueRange;
  q_ = random_input(storage, dims_.q_numel(), rng, keep ? &host_q_ : nullptr, -q_range, q_range);
  k_ = random_input(storage, dims_.kv_numel(), rng, keep ? &host_k_ : nullptr, -kv_range, kv_range);
  v_ = random_input(storage, dims_.kv_numel(), rng, keep ? &host_v_ : nullptr, -kv_range, kv_range);
  o_ = allocate(storage, dims_.q_numel());
  launch_ = factory(dims_, dtype);
}

namespace {

std::vector<double> scaled(std::vector<double> v, double by) {
  for (double& x : v) x *= by;
  return v;
}

}  // namespace

CheckResult AttentionProblem::check() const {
  require_check_scale(!host_q_.values.empty(), "AttentionProblem");
  if (is_fp8(dtype_)) {  // in float64 from the dequantised inputs; O read back through its scale
    const Fp8AttentionScales s = fp8_attention_scales(dtype_);
    const std::vector<double> ref = reference_attention(scaled(host_q_.values, s.descale_q),
                                                        scaled(host_k_.values, s.descale_kv),
                                                        scaled(host_v_.values, s.descale_kv), dims_);
    return compare_to_reference(scaled(download(o_), 1.0 / s.scale_o), ref, fp8_attention_tolerance(dtype_));
  }
  return compare_to_reference(download(o_), reference_attention(host_q_.values, host_k_.values, host_v_.values, dims_),
                              tolerance(dtype_));
}

}  // namespace archbench::kernels::attention
