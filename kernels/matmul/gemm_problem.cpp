#include "kernels/matmul/gemm_problem.hpp"

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

namespace archbench::kernels::matmul {
namespace {

// C = A · Bᵀ in float64; both operands are K-contiguous, so each output is one dot product.
std::vector<double> reference_gemm(const std::vector<double>& a, const std::vector<double>& b, GemmDims d) {
  std::vector<double> c(static_cast<size_t>(d.M) * d.N);
  const unsigned workers = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::jthread> pool;
  for (unsigned w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      for (int i = static_cast<int>(w); i < d.M; i += static_cast<int>(workers)) {
        const double* ai = &a[static_cast<size_t>(i) * d.K];
        for (int j = 0; j < d.N; ++j) {
          const double* bj = &b[static_cast<size_t>(j) * d.K];
          double s = 0;
          for (int k = 0; k < d.K; ++k) s += ai[k] * bj[k];
          c[static_cast<size_t>(i) * d.N + j] = s;
        }
      }
    });
  }
  pool.clear();  // joins
  return c;
}

}  // namespace

std::string GemmDims::str() const {
  return "M" + std::to_string(M) + "_N" + std::to_string(N) + "_K" + std::to_string(K);
}

GemmDims GemmDims::check_dims() const { return {std::min(M, 272), std::min(N, 320), K}; }

GemmProblem::GemmProblem(GemmDims dims, DType math, GemmLaunch launch, ProblemScale scale, uint64_t seed)
    : dims_(scale == ProblemScale::Check ? dims.check_dims() : dims), math_(math), launch_(std::move(launch)) {
  std::mt19937_64 rng(seed);
  const DType storage = storage_dtype(math);
  host_a_ = random_tensor(storage, static_cast<size_t>(dims_.M) * dims_.K, rng);
  host_b_ = random_tensor(storage, static_cast<size_t>(dims_.N) * dims_.K, rng);
  a_ = upload(host_a_);
  b_ = upload(host_b_);
  c_ = allocate(storage, static_cast<size_t>(dims_.M) * dims_.N);
  if (scale == ProblemScale::Bench) {  // too large for the CPU reference: free the host copies
    host_a_ = {};
    host_b_ = {};
  }
}

CheckResult GemmProblem::check() const {
  if (host_a_.values.empty()) throw std::logic_error("GemmProblem::check needs a ProblemScale::Check problem");
  return compare_to_reference(download(c_), reference_gemm(host_a_.values, host_b_.values, dims_), tolerance(math_));
}

CheckResult GemmProblem::check_finite() const { return check_all_finite(c_); }

}  // namespace archbench::kernels::matmul
