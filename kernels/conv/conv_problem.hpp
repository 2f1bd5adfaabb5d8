// A convolution problem with its float64 reference. Own kernels and cuDNN twins differ only in
// the launcher, which is built per problem because both keep state (a split-K workspace, cuDNN
// descriptors and the chosen algorithm's workspace) that must exist before launch().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "harness/ops/operator.hpp"
#include "kernels/conv/conv_dims.hpp"

namespace archbench::kernels::conv {

class ConvLauncher {
 public:
  virtual ~ConvLauncher() = default;
  // Called once, right after construction, with the tensors every launch() will get: a launcher
  // that binds buffers ahead (the cuDNN graph twin's variant pack) does it here, not in launch().
  virtual void bind(const DeviceTensor& /*x*/, const DeviceTensor& /*w*/, const DeviceTensor& /*y*/) {}
  // Enqueues y = conv(x, w) on `stream`; never synchronizes.
  virtual void launch(const DeviceTensor& x, const DeviceTensor& w, DeviceTensor& y, cudaStream_t stream) = 0;
  [[nodiscard]] virtual std::string implementation() const { return {}; }  // see Problem::implementation
};

// Builds the launcher for a problem of shape `dims`. `bench` is the operator's benchmark shape:
// own kernels plan their tiles and split-K for it, so that the check shape (same C, R, S) runs
// the very code path that is timed.
using MakeConvLauncher =
    std::function<std::unique_ptr<ConvLauncher>(const ConvDims& dims, const ConvDims& bench)>;

class ConvProblem final : public Problem {
 public:
  // Inputs are drawn from `seed` in NHWC / KRSC order and then stored in `layout`, so that every
  // layout and implementation sees the same logical tensors for one seed. `math` decides the
  // tolerance (tf32 math on f32 storage).
  // `check`: the shape the check scale runs (bench.check_dims() for every kernel but one whose
  // tiling takes fewer shapes).
  ConvProblem(const ConvDims& bench, const ConvDims& check, ConvLayout layout, DType math, const MakeConvLauncher& make,
              ProblemScale scale, uint64_t seed);
  [[nodiscard]] std::string shape() const override { return dims_.str(); }
  void poison_output() override { poison(y_); }
  void launch(cudaStream_t stream) override { launcher_->launch(x_, w_, y_, stream); }
  [[nodiscard]] std::string implementation() const override { return launcher_->implementation(); }
  [[nodiscard]] CheckResult check() const override;
  [[nodiscard]] CheckResult check_finite() const override;

 private:
  ConvDims dims_;
  ConvLayout layout_;
  DType math_;
  HostTensor host_x_, host_w_;  // in layout_; kept only at the check scale
  DeviceTensor x_, w_, y_;
  std::unique_ptr<ConvLauncher> launcher_;
};

}  // namespace archbench::kernels::conv
