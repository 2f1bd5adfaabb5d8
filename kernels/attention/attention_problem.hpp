// One attention problem: Q, K, V on the device (BHND, see attention_dims.hpp), the output O, and
// the float64 reference at the check scale. Implementations differ only in their launch, which
// is built once per problem by a factory (so workspaces and cuDNN execution plans are made in
// make_problem, never in launch).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "harness/ops/operator.hpp"
#include "kernels/attention/attention_dims.hpp"

namespace archbench::kernels::attention {

using AttentionLaunch =
    std::function<void(const DeviceTensor& q, const DeviceTensor& k, const DeviceTensor& v, DeviceTensor& o,
                       cudaStream_t stream)>;
// Called once per problem with its dims and dtype; may allocate (and throw CudaError/LibraryError).
using AttentionLaunchFactory = std::function<AttentionLaunch(const AttentionDims& dims, DType dtype)>;

// Input ranges. Q is wider than K and V so that the logits q·k/sqrt(d) have a standard deviation
// of about 2 whatever d is (uniform [-6,6] · uniform [-1,1] summed over d, divided by sqrt(d)):
// the softmax is then far from flat and the running maximum moves between key tiles.
inline constexpr double kQueryRange = 6.0;
inline constexpr double kKeyValueRange = 1.0;

// FP8 problems (e4m3, e5m2): Q, K and V are stored across the format's whole range (fp8_max: +-448
// or +-57344, which a quantised model's per-tensor scale makes its tensors use) and their descales
// bring them to the ranges above; cuDNN stores the softmax's P (<= 1) as P * scale_p and O
// (|O| <= max |V| = 1) as O * scale_o, both fp8_max, as Transformer Engine's scale = fp8_max / amax
// gives them. Floats, as the GPU reads them; the reference dequantises with the same floats.
struct Fp8AttentionScales {
  float descale_q;   // kQueryRange / fp8_max
  float descale_kv;  // kKeyValueRange / fp8_max, for K and V
  float scale_p;
  float scale_o;
};
[[nodiscard]] constexpr Fp8AttentionScales fp8_attention_scales(DType format) {
  const double range = fp8_max(format);
  return {static_cast<float>(kQueryRange / range), static_cast<float>(kKeyValueRange / range),
          static_cast<float>(range), static_cast<float>(range)};
}
// The inputs are exact in FP8; two roundings to the format are not (cuDNN's P before P·V, and O),
// each at most half an ulp, 2^-(m+1) of an element for m mantissa bits: a normwise bound of
// 2 · 2^-(m+1) = 2^-m, 0.125 for e4m3 (m = 3) and 0.25 for e5m2 (m = 2) (docs/measurement.md). The
// own kernel's P is e4m3 under e5m2 too, which rounds less.
[[nodiscard]] constexpr double fp8_attention_tolerance(DType format) {
  return 1.0 / (1 << fp8_mantissa_bits(format));
}

class AttentionProblem final : public Problem {
 public:
  AttentionProblem(AttentionDims dims, DType dtype, const AttentionLaunchFactory& factory, ProblemScale scale,
                   uint64_t seed);
  [[nodiscard]] std::string shape() const override { return dims_.str(); }
  void poison_output() override { poison(o_); }
  void launch(cudaStream_t stream) override { launch_(q_, k_, v_, o_, stream); }
  [[nodiscard]] CheckResult check() const override;
  [[nodiscard]] CheckResult check_finite() const override { return check_all_finite(o_); }

 private:
  AttentionDims dims_;
  DType dtype_;
  HostTensor host_q_, host_k_, host_v_;  // kept only at the check scale
  DeviceTensor q_, k_, v_, o_;  // FP8: stored values (scales above), O included
  AttentionLaunch launch_;
};

}  // namespace archbench::kernels::attention
