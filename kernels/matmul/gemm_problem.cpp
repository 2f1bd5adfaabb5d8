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
  const double range = math == DType::E4M3 ? 448.0 : 1.0;  // FP8: the whole e4m3 range
  a_ = random_input(storage, static_cast<size_t>(dims_.M) * dims_.K, rng, keep ? &host_a_ : nullptr, -range, range);
  b_ = random_input(storage, static_cast<size_t>(dims_.N) * dims_.K, rng, keep ? &host_b_ : nullptr, -range, range);
  c_ = allocate(result_dtype(math), static_cast<size_t>(dims_.M) * dims_.N);
  if (math == DType::E4M3) {
    scales_ = upload(HostTensor{DType::F32, {kFp8ScaleA, kFp8ScaleB}});
  }
}

void GemmProblem::launch(cudaStream_t stream) {
  const float* scales = scales_.numel == 2 ? scales_.as<float>() : nullptr;
  launch_(GemmOperands{a_, b_, c_, dims_, scales, scales == nullptr ? nullptr : scales + 1}, stream);
}

CheckResult GemmProblem::check() const {
  require_check_scale(!host_a_.values.empty(), "GemmProblem");
  std::vector<double> ref = reference_gemm(host_a_.values, host_b_.values, dims_);
  if (math_ == DType::E4M3) {  // the scales, in float64 from the floats the GPU reads
    const double s = static_cast<double>(kFp8ScaleA) * static_cast<double>(kFp8ScaleB);
    for (double& x : ref) x *= s;
  }
  return compare_to_reference(download(c_), ref, tolerance(math_));
}

CheckResult GemmProblem::check_finite() const { return check_all_finite(c_); }

}  // namespace archbench::kernels::matmul
