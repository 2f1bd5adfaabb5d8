#include "kernels/attention/attention_problem.hpp"

#include <random>
#include <stdexcept>
#include <utility>

namespace archbench::kernels::attention {

AttentionProblem::AttentionProblem(AttentionDims dims, DType dtype, const AttentionLaunchFactory& factory,
                                   ProblemScale scale, uint64_t seed)
    : dims_(scale == ProblemScale::Check ? dims.check_dims() : dims), dtype_(dtype) {
  std::mt19937_64 rng(seed);
  const DType storage = storage_dtype(dtype);
  host_q_ = random_tensor(storage, dims_.q_numel(), rng, -kQueryRange, kQueryRange);
  host_k_ = random_tensor(storage, dims_.kv_numel(), rng, -kKeyValueRange, kKeyValueRange);
  host_v_ = random_tensor(storage, dims_.kv_numel(), rng, -kKeyValueRange, kKeyValueRange);
  q_ = upload(host_q_);
  k_ = upload(host_k_);
  v_ = upload(host_v_);
  o_ = allocate(storage, dims_.q_numel());
  if (scale == ProblemScale::Bench) {  // too large for the CPU reference: free the host copies
    host_q_ = {};
    host_k_ = {};
    host_v_ = {};
  }
  launch_ = factory(dims_, dtype);
}

CheckResult AttentionProblem::check() const {
  if (host_q_.values.empty()) throw std::logic_error("AttentionProblem::check needs a ProblemScale::Check problem");
  return compare_to_reference(download(o_), reference_attention(host_q_.values, host_k_.values, host_v_.values, dims_),
                              tolerance(dtype_));
}

}  // namespace archbench::kernels::attention
