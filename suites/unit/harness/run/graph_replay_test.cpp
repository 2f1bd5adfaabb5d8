// CUDA-graph replay timing without a GPU: the batch size and the auto rule, the --cuda-graph
// names and the shared sampling loop (on a fake sample). The GPU side is
// suites/ops/graph_replay_gpu_test.cpp.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/device/environment.hpp"
#include "harness/ops/registry.hpp"
#include "harness/run/graph_replay.hpp"
#include "harness/run/phases.hpp"
#include "harness/run/timer.hpp"
#include "harness/util/cuda_check.hpp"
#include "harness/util/cuda_raii.hpp"

namespace archbench {
namespace {

TEST(GraphBatch, OneReplayLastsAtLeastTheTargetWithinOneToHundredLaunches) {
  EXPECT_EQ(graph_batch_for(0.02), 10);
  EXPECT_EQ(graph_batch_for(0.002), 100);
  EXPECT_EQ(graph_batch_for(0.03), 7);    // 6.67 launches rounds up
  EXPECT_EQ(graph_batch_for(0.0005), 100);  // 400 wanted, capped
  EXPECT_EQ(graph_batch_for(0.2), 1);
  EXPECT_EQ(graph_batch_for(5.0), 1);
  EXPECT_EQ(graph_batch_for(std::numeric_limits<double>::infinity()), 1);
  // Unknown time: the most launches.
  EXPECT_EQ(graph_batch_for(0), 100);
  EXPECT_EQ(graph_batch_for(-1), 100);
  EXPECT_EQ(graph_batch_for(std::nan("")), 100);
  // The smallest batch that reaches the target, wherever the cap allows it.
  for (double ms = 0.0021; ms < 0.25; ms *= 1.07) {
    const int n = graph_batch_for(ms);
    ASSERT_GE(n, 1);
    ASSERT_LE(n, kGraphMaxBatch);
    EXPECT_GE(n * ms, kGraphReplayTargetMs * (1 - 1e-9)) << ms;
    if (n > 1) {
      EXPECT_LT((n - 1) * ms, kGraphReplayTargetMs) << ms;
    }
  }
}

TEST(GraphMode, AutoReplaysOnlyLaunchBoundOperators) {
  for (double ms : {0.001, 0.049, 0.05, 1.0}) {
    EXPECT_FALSE(graph_replay_wanted(CudaGraphMode::Off, ms));
    EXPECT_TRUE(graph_replay_wanted(CudaGraphMode::All, ms));
  }
  EXPECT_TRUE(graph_replay_wanted(CudaGraphMode::Auto, 0.005));
  EXPECT_TRUE(graph_replay_wanted(CudaGraphMode::Auto, 0.0499));
  EXPECT_FALSE(graph_replay_wanted(CudaGraphMode::Auto, 0.05));
  EXPECT_FALSE(graph_replay_wanted(CudaGraphMode::Auto, 0.3));
  EXPECT_FALSE(graph_replay_wanted(CudaGraphMode::Auto, std::nan("")));
}

TEST(GraphMode, NamesParseBackAndNothingElseDoes) {
  for (CudaGraphMode m : values_of(kCudaGraphModes)) {
    EXPECT_EQ(parse_name(kCudaGraphModes, cuda_graph_mode_name(m)), m);
  }
  EXPECT_EQ(cuda_graph_mode_name(CudaGraphMode::Auto), "auto");
  for (const char* bad : {"", "bogus", "ALL", "on", "true", "1", "auto "}) {
    EXPECT_FALSE(parse_name(kCudaGraphModes, bad).has_value()) << '"' << bad << '"';
  }
  EXPECT_EQ(TimerConfig{}.cuda_graph, CudaGraphMode::Off);  // the default changes nothing
}

// The loop graph replay shares with single launches, on a fake sample: no GPU needed.
TEST(SamplingLoop, WarmsUpThenStopsAtTheNoiseTargetOrTheSampleCap) {
  TimerConfig cfg;
  cfg.warmup_seconds = 0;
  int warm = 0, taken = 0;
  TimingResult steady = time_samples([&] { ++warm; }, [&] {
    ++taken;
    return 0.010;
  }, cfg);
  EXPECT_EQ(warm, 3);
  EXPECT_EQ(steady.samples_ms.size(), static_cast<size_t>(cfg.min_samples));
  EXPECT_EQ(steady.stop_reason, StopReason::NoiseTarget);
  EXPECT_DOUBLE_EQ(steady.median_ms, 0.010);
  EXPECT_EQ(steady.mode, LaunchMode::Async);  // the caller's to set
  EXPECT_TRUE(steady.sm_mhz.empty());  // no device uuid, no clocks

  cfg.max_samples = 57;
  cfg.max_seconds = 1000;
  cfg.target_noise = 0;  // never reached
  cfg.cold_l2 = false;
  taken = 0;
  TimingResult noisy = time_samples([] {}, [&] { return (++taken % 2) ? 1.0 : 3.0; }, cfg);
  EXPECT_EQ(noisy.samples_ms.size(), 57u);
  EXPECT_EQ(noisy.stop_reason, StopReason::MaxSamples);
  EXPECT_FALSE(noisy.cold_l2);
  EXPECT_DOUBLE_EQ(noisy.min_ms, 1.0);
  EXPECT_DOUBLE_EQ(noisy.max_ms, 3.0);
}

}  // namespace
}  // namespace archbench
