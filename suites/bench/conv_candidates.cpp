#include "suites/bench/conv_candidates.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "harness/device/environment.hpp"
#include "harness/run/timer.hpp"
#include "harness/util/cuda_check.hpp"
#include "kernels/conv/conv_cudnn.hpp"

namespace archbench::bench {
namespace {

// ||got - ref|| / ||ref||.
double relative_difference(const std::vector<double>& got, const std::vector<double>& ref) {
  double num = 0;
  double den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    num += (got[i] - ref[i]) * (got[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / std::max(den, 1e-30));
}

}  // namespace

std::optional<size_t> usable_device_l2_bytes() {
  const Environment env = probe_environment();
  if (!env.usable()) {
    std::fprintf(stderr, "no usable CUDA device: %s\n", env.device_count_error_text.c_str());
    return std::nullopt;
  }
  return env.devices.front().l2_bytes;
}

ConvBenchCase::ConvBenchCase(const kernels::conv::ConvDims& dims, DType type)
    : d(dims),
      dtype(type),
      x(random_device_tensor(type, dims.input_numel(), 1)),
      w(random_device_tensor(type, dims.filter_numel(), 2)),
      y(allocate(type, dims.output_numel())),
      y_cudnn(allocate(type, dims.output_numel())),
      cudnn(kernels::conv::make_cudnn_launcher(dims, kernels::conv::ConvLayout::NHWC, type)) {
  std::printf("%s %s\n", d.str().c_str(), std::string(dtype_name(dtype)).c_str());
  cudnn->bind(x, w, y_cudnn);
  const auto launch_cudnn = [this](cudaStream_t s) { cudnn->launch(x, w, y_cudnn, s); };
  candidates.push_back({"cudnn: " + cudnn->implementation(), launch_cudnn, {}});
}

void ConvBenchCase::print_time(const std::string& name, double us) const {
  const double cudnn_us = median(candidates.front().samples_us);
  std::printf("  %-48s %8.1f us %6.0f TFLOP/s  cuDNN/own %.3f\n", name.c_str(), us, d.flops() / us * 1e-6,
              cudnn_us / us);
}

size_t keep_agreeing(std::vector<Candidate>& candidates, DeviceTensor& out, const DeviceTensor& reference,
                     cudaStream_t stream, size_t& refused) {
  candidates.front().launch(stream);
  ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::vector<double> expected = download(reference);
  std::vector<Candidate> kept{candidates.front()};
  size_t differing = 0;
  refused = 0;
  for (size_t c = 1; c < candidates.size(); ++c) {
    poison(out);
    try {
      candidates[c].launch(stream);
    } catch (const std::invalid_argument&) {  // a plan the kernels do not take: nothing was launched
      ++refused;
      continue;
    }
    ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    const double diff = relative_difference(download(out), expected);
    if (!(diff < 1e-2)) {  // both round fp32 sums of the same products to the storage type
      std::printf("  %-42s DIFFERS from cuDNN: relative difference %.2e\n", candidates[c].name.c_str(), diff);
      ++differing;
      continue;
    }
    kept.push_back(std::move(candidates[c]));
  }
  candidates = std::move(kept);
  return differing;
}

void time_interleaved(std::vector<Candidate>& candidates, int rounds, size_t l2_bytes, cudaStream_t stream) {
  SampleTimer timer(l2_bytes, /*cold_l2=*/true);
  for (auto& c : candidates) (void)timer.sample_ms(c.launch, stream);  // warm-up
  for (int r = 0; r < rounds; ++r) {
    for (auto& c : candidates) c.samples_us.push_back(timer.sample_ms(c.launch, stream) * 1e3);
  }
}

}  // namespace archbench::bench
