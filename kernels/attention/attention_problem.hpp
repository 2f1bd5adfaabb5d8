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

// FP8 (e4m3) problems: Q, K and V are stored across the whole e4m3 range (+-448, which a quantised
// model's per-tensor scale makes its tensors use) and their descales bring them to the ranges
// above; cuDNN stores the softmax's P (<= 1) as P * 448 and O (|O| <= max |V| = 1) as O * 448.
// Floats, as the GPU reads them; the reference dequantises with the same floats.
inline constexpr double kFp8Range = 448.0;  // e4m3's largest finite value
inline constexpr float kFp8DescaleQ = static_cast<float>(kQueryRange / kFp8Range);
inline constexpr float kFp8DescaleKV = static_cast<float>(kKeyValueRange / kFp8Range);
inline constexpr float kFp8ScaleP = static_cast<float>(kFp8Range);
inline constexpr float kFp8ScaleO = static_cast<float>(kFp8Range);
// The inputs are exact in e4m3; two roundings to e4m3 are not (P before P·V, and O), each at most
// 2^-4 of an element (3 mantissa bits): a normwise bound of 2 · 2^-4 (docs/measurement.md).
inline constexpr double kFp8AttentionTolerance = 0.125;

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
  DeviceTensor q_, k_, v_, o_;  // e4m3: stored values (scales above), O included
  AttentionLaunch launch_;
};

}  // namespace archbench::kernels::attention
