// A GEMM problem as nn.Linear computes it: C[M,N] = A[M,K] · B[N,K]ᵀ, row-major, with its
// float64 reference. Own kernels and cuBLAS twins differ only in the launch function. In FP8
// (e4m3; e5m2, an e5m2 A times an e4m3 B) the operands carry per-tensor scales, as a quantised
// checkpoint's weights and the activations quantised on the fly do: C = scale_a * scale_b * A · Bᵀ,
// in bf16.
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
  [[nodiscard]] double bytes(DType math) const {
    return static_cast<double>(storage_bytes(storage_dtype(math))) * (1.0 * M * K + 1.0 * N * K) +
           static_cast<double>(storage_bytes(result_dtype(math))) * M * N;
  }
  // The shape checked against the CPU reference: the full reduction length K (which drives
  // rounding error), M and N cut to a size that is not a multiple of the 128 tiles.
  [[nodiscard]] GemmDims check_dims() const;
};

// What a launch gets: the operands, the shape, and for FP8 the two per-tensor scales (device
// floats; null otherwise).
struct GemmOperands {
  const DeviceTensor& a;
  const DeviceTensor& b;
  DeviceTensor& c;
  GemmDims dims;
  const float* scale_a = nullptr;
  const float* scale_b = nullptr;
};
using GemmLaunch = std::function<void(const GemmOperands& operands, cudaStream_t stream)>;

// FP8's per-tensor scales in the problems: not powers of two, so that a kernel that drops or
// misapplies one fails the check. The inputs span their format's whole range (e4m3 +-448, e5m2
// +-57344), so the dequantised operands are about +-1.5 (A) and +-2.2 (B).
inline constexpr float kFp8ScaleA = 1.0f / 300, kFp8ScaleB = 1.0f / 200;
inline constexpr float kFp8E5M2ScaleA = 1.0f / 38000;
[[nodiscard]] constexpr float fp8_scale_a(DType math) { return math == DType::E5M2 ? kFp8E5M2ScaleA : kFp8ScaleA; }

class GemmProblem final : public Problem {
 public:
  // `math` decides the tolerance (tf32 math on f32 storage); storage is what is in memory.
  GemmProblem(GemmDims dims, DType math, GemmLaunch launch, ProblemScale scale, uint64_t seed);
  [[nodiscard]] std::string shape() const override { return dims_.str(); }
  void poison_output() override { poison(c_); }
  void launch(cudaStream_t stream) override;
  [[nodiscard]] CheckResult check() const override;
  [[nodiscard]] CheckResult check_finite() const override;

 private:
  GemmDims dims_;
  DType math_;
  GemmLaunch launch_;
  HostTensor host_a_, host_b_;  // kept only at the check scale
  DeviceTensor a_, b_, c_;
  DeviceTensor scale_a_, scale_b_;  // FP8's per-tensor scales, one float each
};

}  // namespace archbench::kernels::matmul
