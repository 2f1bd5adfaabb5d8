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
  const DType storage = storage_dtype(math);
  const bool keep = scale == ProblemScale::Check;  // the benchmark shape is too large for the CPU reference
  a_ = random_input(storage, static_cast<size_t>(dims_.M) * dims_.K, rng, keep ? &host_a_ : nullptr);
  b_ = random_input(storage, static_cast<size_t>(dims_.N) * dims_.K, rng, keep ? &host_b_ : nullptr);
  c_ = allocate(storage, static_cast<size_t>(dims_.M) * dims_.N);
}

CheckResult GemmProblem::check() const {
  require_check_scale(!host_a_.values.empty(), "GemmProblem");
  return compare_to_reference(download(c_), reference_gemm(host_a_.values, host_b_.values, dims_), tolerance(math_));
}

CheckResult GemmProblem::check_finite() const { return check_all_finite(c_); }

}  // namespace archbench::kernels::matmul
