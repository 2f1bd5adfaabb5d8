#include "suites/bench/conv_candidates.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "harness/run/timer.hpp"
#include "harness/util/cuda_check.hpp"

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

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
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
