#include "kernels/matmul/gemm_problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "kernels/matmul/gemm_reference.hpp"

namespace archbench::kernels::matmul {

std::string GemmDims::str() const {
  return "M" + std::to_string(M) + "_N" + std::to_string(N) + "_K" + std::to_string(K);
}

GemmDims GemmDims::check_dims() const { return {std::min(M, 272), std::min(N, 320), K}; }

GemmProblem::GemmProblem(GemmDims dims, DType math, GemmLaunch launch, ProblemScale scale, uint64_t seed)
    : dims_(scale == ProblemScale::Check ? dims.check_dims() : dims), math_(math), launch_(std::move(launch)) {
  std::mt19937_64 rng(seed);
  const DType a_type = storage_dtype(math), b_type = fp8_partner(a_type);
  const bool keep = scale == ProblemScale::Check;  // the benchmark shape is too large for the CPU reference
  // FP8: each operand across its format's whole range.
  const double range_a = is_fp8(a_type) ? fp8_max(a_type) : 1.0, range_b = is_fp8(b_type) ? fp8_max(b_type) : 1.0;
  a_ = random_input(a_type, static_cast<size_t>(dims_.M) * dims_.K, rng, keep ? &host_a_ : nullptr, -range_a, range_a);
  b_ = random_input(b_type, static_cast<size_t>(dims_.N) * dims_.K, rng, keep ? &host_b_ : nullptr, -range_b, range_b);
  c_ = allocate(result_dtype(math), static_cast<size_t>(dims_.M) * dims_.N);
  if (is_fp8(math)) {
    // Each scale in its own allocation, as a framework's scale tensors are: cuBLASLt refused the
    // matmul with the B scale 4 bytes into the A scale's buffer (CUBLAS_STATUS_NOT_SUPPORTED).
    scale_a_ = upload(HostTensor{DType::F32, {fp8_scale_a(math)}});
    scale_b_ = upload(HostTensor{DType::F32, {kFp8ScaleB}});
  }
}

void GemmProblem::launch(cudaStream_t stream) {
  const bool fp8 = is_fp8(math_);
  launch_(GemmOperands{a_, b_, c_, dims_, fp8 ? scale_a_.as<float>() : nullptr, fp8 ? scale_b_.as<float>() : nullptr},
          stream);
}

CheckResult GemmProblem::check() const {
  require_check_scale(!host_a_.values.empty(), "GemmProblem");
  std::vector<double> ref = reference_gemm(host_a_.values, host_b_.values, dims_);
  if (is_fp8(math_)) {  // the scales, in float64 from the floats the GPU reads
    const double s = static_cast<double>(fp8_scale_a(math_)) * static_cast<double>(kFp8ScaleB);
    for (double& x : ref) x *= s;
  }
  return compare_to_reference(download(c_), ref, tolerance(math_));
}

CheckResult GemmProblem::check_finite() const { return check_all_finite(c_); }

}  // namespace archbench::kernels::matmul
