// The run's timer on a GPU (skipped without one, saying why): host time spent inside a launch
// function before its kernel is not GPU time, a launch that waits for the GPU inside the timed
// region ends the hold with the reason, and a launch that throws leaves nothing waiting. Its own
// executable, because the GPU suite runs with CUDA_LAUNCH_BLOCKING=1, under which nothing is held.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <thread>

#include "harness/run/empty_kernel.hpp"
#include "harness/run/timer.hpp"
#include "harness/util/cuda_check.hpp"
#include "harness/util/cuda_raii.hpp"

namespace archbench {
namespace {

class TimerGpu : public testing::Test {
 protected:
  void SetUp() override {
    int n = 0;
    if (const cudaError_t e = cudaGetDeviceCount(&n); e != cudaSuccess || n == 0) {
      GTEST_SKIP() << "no usable CUDA device: " << (e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    }
    cfg_.min_samples = 20;
    cfg_.max_samples = 40;
    cfg_.max_seconds = 0.5;
    stream_.emplace();
  }
  [[nodiscard]] cudaStream_t stream() const { return stream_->get(); }
  TimerConfig cfg_;
  std::optional<CudaStream> stream_;
  static constexpr size_t kL2 = 1 << 20;
};

void busy_wait_us(int us) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  while (std::chrono::steady_clock::now() < until) {
  }
}

TEST_F(TimerGpu, HostTimeBeforeTheKernelIsNotGpuTime) {
  // 300 us of host work ahead of an empty kernel, as a library's setup would be: without the hold
  // the events would see at least that; with it, only the kernel.
  const TimingResult t = time_launches(
      [](cudaStream_t s) {
        busy_wait_us(300);
        launch_empty_kernel(s);
      },
      stream(), cfg_, kL2);
  EXPECT_TRUE(t.hold_fallback.empty()) << t.hold_fallback;
  EXPECT_LT(t.median_ms, 0.05) << "host time was timed";
}

TEST_F(TimerGpu, ALaunchThatWaitsForTheGpuEndsTheHoldAndSaysWhy) {
  const TimingResult t = time_launches(
      [](cudaStream_t s) {
        launch_empty_kernel(s);
        ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
      },
      stream(), cfg_, kL2);
  EXPECT_NE(t.hold_fallback.find("waits for the GPU"), std::string::npos) << t.hold_fallback;
  EXPECT_GE(t.samples_ms.size(), 20u);
}

TEST_F(TimerGpu, ALaunchThatThrowsReleasesTheStream) {
  SampleTimer timer(kL2, true);
  EXPECT_THROW((void)timer.sample_ms([](cudaStream_t) { throw std::runtime_error("launch failed"); }, stream()),
               std::runtime_error);
  // Released: the stream drains at once, long before the hold's 20 ms timeout.
  const auto t0 = std::chrono::steady_clock::now();
  ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
  const std::chrono::duration<double, std::milli> drained = std::chrono::steady_clock::now() - t0;
  EXPECT_LT(drained.count(), 10.0);
  const LaunchFn empty = [](cudaStream_t s) { launch_empty_kernel(s); };
  EXPECT_LT(timer.sample_ms(empty, stream()), 1.0);
  EXPECT_TRUE(timer.hold_fallback().empty()) << timer.hold_fallback();
}

}  // namespace
}  // namespace archbench

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  const testing::UnitTest& run = *testing::UnitTest::GetInstance();
  if (rc == 0 && run.successful_test_count() == 0 && run.skipped_test_count() > 0) return 77;  // ctest: skipped
  return rc;
}
