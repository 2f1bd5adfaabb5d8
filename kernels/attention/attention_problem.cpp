#include "kernels/attention/attention_problem.hpp"

#include <random>
#include <stdexcept>
#include <utility>

#include "kernels/attention/attention_reference.hpp"

namespace archbench::kernels::attention {

AttentionProblem::AttentionProblem(AttentionDims dims, DType dtype, const AttentionLaunchFactory& factory,
                                   ProblemScale scale, uint64_t seed)
    : dims_(scale == ProblemScale::Check ? dims.check_dims() : dims), dtype_(dtype) {
  std::mt19937_64 rng(seed);
  const DType storage = storage_dtype(dtype);
  const bool keep = scale == ProblemScale::Check;  // the benchmark shape is too large for the CPU reference
  q_ = random_input(storage, dims_.q_numel(), rng, keep ? &host_q_ : nullptr, -kQueryRange, kQueryRange);
  k_ = random_input(storage, dims_.kv_numel(), rng, keep ? &host_k_ : nullptr, -kKeyValueRange, kKeyValueRange);
  v_ = random_input(storage, dims_.kv_numel(), rng, keep ? &host_v_ : nullptr, -kKeyValueRange, kKeyValueRange);
  o_ = allocate(storage, dims_.q_numel());
  launch_ = factory(dims_, dtype);
}

CheckResult AttentionProblem::check() const {
  require_check_scale(!host_q_.values.empty(), "AttentionProblem");
  return compare_to_reference(download(o_), reference_attention(host_q_.values, host_k_.values, host_v_.values, dims_),
                              tolerance(dtype_));
}

}  // namespace archbench::kernels::attention
