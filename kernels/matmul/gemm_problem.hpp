// A GEMM problem as nn.Linear computes it: C[M,N] = A[M,K] · B[N,K]ᵀ, row-major, with its
// float64 reference. Own kernels and cuBLAS twins differ only in the launch function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "harness/ops/operator.hpp"

namespace archbench::kernels::matmul {

struct GemmDims {
  int M = 0, N = 0, K = 0;
  [[nodiscard]] std::string str() const;  // "M8192_N960_K320"
  [[nodiscard]] double flops() const { return 2.0 * M * N * K; }
  [[nodiscard]] double bytes(DType d) const {
    return static_cast<double>(storage_bytes(d)) * (1.0 * M * K + 1.0 * N * K + 1.0 * M * N);
  }
  // The shape checked against the CPU reference: the full reduction length K (which drives
  // rounding error), M and N cut to a size that is not a multiple of the 128 tiles.
  [[nodiscard]] GemmDims check_dims() const;
};

using GemmLaunch = std::function<void(const DeviceTensor& a, const DeviceTensor& b, DeviceTensor& c, GemmDims dims,
                                      cudaStream_t stream)>;

class GemmProblem final : public Problem {
 public:
  // `math` decides the tolerance (tf32 math on f32 storage); storage is what is in memory.
  GemmProblem(GemmDims dims, DType math, GemmLaunch launch, ProblemScale scale, uint64_t seed);
  [[nodiscard]] std::string shape() const override { return dims_.str(); }
  void poison_output() override { poison(c_); }
  void launch(cudaStream_t stream) override { launch_(a_, b_, c_, dims_, stream); }
  [[nodiscard]] CheckResult check() const override;
  [[nodiscard]] CheckResult check_finite() const override;

 private:
  GemmDims dims_;
  DType math_;
  GemmLaunch launch_;
  HostTensor host_a_, host_b_;  // kept only at the check scale
  DeviceTensor a_, b_, c_;
};

}  // namespace archbench::kernels::matmul
