// CUDA-graph replay timing on a GPU (skipped without one, saying why): the replay of an own
// elementwise operator and a cuBLAS GEMM twin, samples per launch, the slowdown knob inside the
// graph, and the fallback of launches that cannot be captured. In the GPU suite so that ctest
// labels them gpu (the CPU side is suites/unit/harness/run/graph_replay_test.cpp); that suite runs with
// CUDA_LAUNCH_BLOCKING=1, under which capture works as well (tested on the H200).

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
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
#include "suites/ops/sanitizer_env.hpp"

namespace archbench {
namespace {


const Environment& environment() {
  static const Environment env = probe_environment();
  return env;
}

// The registry's operator of `family` and `impl` with the fewest bytes (flops for matmul), f16.
const Operator* smallest(const std::string& family, Impl impl) {
  const Operator* best = nullptr;
  for (const auto& op : registry().all()) {
    const auto& s = op->spec();
    if (s.family != family || s.impl != impl || s.dtype != DType::F16) continue;
    const double size = family == "matmul" ? s.flops : s.bytes;
    const double best_size = best == nullptr ? 0 : (family == "matmul" ? best->spec().flops : best->spec().bytes);
    if (best == nullptr || size < best_size) best = op.get();
  }
  return best;
}

class GraphReplayGpu : public testing::Test {
 protected:
  void SetUp() override {
    const Environment& env = environment();
    if (!env.usable()) GTEST_SKIP() << "no usable CUDA device: " << env.device_count_error_text;
    ARCHBENCH_CUDA_CHECK(cudaSetDevice(0));
    device_ = env.devices.front();
    cfg_.max_seconds = 0.3;
    cfg_.cuda_graph = CudaGraphMode::All;
  }

  // time_operator as the timing worker runs it.
  OperatorResult timed(const Operator& op, const TimerConfig& cfg) const {
    OperatorResult r = describe(op);
    time_operator(op, Ceilings{}, static_cast<size_t>(device_.l2_bytes), cfg, 1234, r);
    return r;
  }

  void expect_graph_timing(const Operator& op) {
    if (device_.cc < op.spec().min_cc) GTEST_SKIP() << op.id() << " needs CC " << op.spec().min_cc.str();
    const OperatorResult r = timed(op, cfg_);
    ASSERT_TRUE(r.error.empty()) << op.id() << ": " << r.error;
    ASSERT_TRUE(r.timing.has_value());
    const TimingResult& t = *r.timing;
    EXPECT_EQ(t.mode, LaunchMode::Graph) << op.id() << " fell back: " << t.graph_fallback;
    EXPECT_TRUE(t.graph_fallback.empty()) << t.graph_fallback;
    EXPECT_GE(t.graph_batch, 1);
    EXPECT_LE(t.graph_batch, kGraphMaxBatch);
    ASSERT_FALSE(t.samples_ms.empty());
    for (double s : t.samples_ms) ASSERT_TRUE(std::isfinite(s) && s > 0) << s;
    EXPECT_GT(t.median_ms, 0);
  }

  DeviceInfo device_;
  TimerConfig cfg_;
};

TEST_F(GraphReplayGpu, OwnElementwiseOperatorIsReplayed) {
  const Operator* op = smallest("elementwise", Impl::Own);
  ASSERT_NE(op, nullptr) << "no own f16 elementwise operator in the registry";
  expect_graph_timing(*op);
}

TEST_F(GraphReplayGpu, CublasGemmTwinIsReplayed) {
  const Operator* op = smallest("matmul", Impl::CuBLAS);
  ASSERT_NE(op, nullptr) << "no cuBLAS f16 GEMM in the registry";
  expect_graph_timing(*op);
}

// Per launch, not per replay: a replay of 10 launches divided by 10 is no slower than one launch
// timed alone (it would be ~10x without the division).
TEST_F(GraphReplayGpu, SamplesArePerLaunch) {
  const Operator* op = smallest("elementwise", Impl::Own);
  ASSERT_NE(op, nullptr);
  CudaStream stream;
  auto p = op->make_problem(ProblemScale::Bench, 7);
  const LaunchFn launch = [&](cudaStream_t s) { p->launch(s); };
  const size_t l2 = static_cast<size_t>(device_.l2_bytes);
  const TimingResult single = time_launches(launch, stream.get(), cfg_, l2);
  const TimingResult replay = time_graph_replays(launch, stream.get(), cfg_, l2, 10);
  ASSERT_EQ(replay.mode, LaunchMode::Graph) << replay.graph_fallback;
  EXPECT_EQ(replay.graph_batch, 10);
  if (!sanitizer_tool().empty()) {
    std::cout << "note: timing ratio not asserted under compute-sanitizer " << sanitizer_tool() << "\n";
    return;
  }
  EXPECT_LT(replay.median_ms, 2 * single.median_ms) << "single " << single.median_ms << " ms";
}

// ARCHBENCH_TEST_SLOWDOWN: the spin after every launch is inside the captured graph.
TEST_F(GraphReplayGpu, InjectedSlowdownIsInsideTheGraph) {
  const Operator* op = smallest("matmul", Impl::CuBLAS);
  ASSERT_NE(op, nullptr);
  const TimingResult plain = *timed(*op, cfg_).timing;
  ASSERT_EQ(plain.mode, LaunchMode::Graph) << plain.graph_fallback;
  ASSERT_EQ(setenv("ARCHBENCH_TEST_SLOWDOWN", (op->id() + "=0.5").c_str(), 1), 0);
  const OperatorResult slowed = timed(*op, cfg_);
  unsetenv("ARCHBENCH_TEST_SLOWDOWN");
  ASSERT_TRUE(slowed.error.empty()) << slowed.error;
  EXPECT_EQ(slowed.timing->mode, LaunchMode::Graph) << slowed.timing->graph_fallback;
  EXPECT_DOUBLE_EQ(slowed.timing->injected_slowdown, 0.5);
  if (!sanitizer_tool().empty()) {
    std::cout << "note: timing ratio not asserted under compute-sanitizer " << sanitizer_tool() << "\n";
    return;
  }
  EXPECT_GT(slowed.timing->median_ms, 1.2 * plain.median_ms) << "plain " << plain.median_ms << " ms";
}

// An operator whose launch synchronizes its stream: legal when launched, forbidden under capture.
class SyncingProblem : public Problem {
 public:
  explicit SyncingProblem(std::unique_ptr<Problem> inner) : inner_(std::move(inner)) {}
  [[nodiscard]] std::string shape() const override { return inner_->shape(); }
  void poison_output() override { inner_->poison_output(); }
  void launch(cudaStream_t stream) override {
    ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    inner_->launch(stream);
  }
  [[nodiscard]] CheckResult check() const override { return inner_->check(); }
  [[nodiscard]] CheckResult check_finite() const override { return inner_->check_finite(); }

 private:
  std::unique_ptr<Problem> inner_;
};

class SyncingOperator : public Operator {
 public:
  explicit SyncingOperator(const Operator& inner) : Operator(inner.spec()), inner_(inner) {}
  [[nodiscard]] std::unique_ptr<Problem> make_problem(ProblemScale scale, uint64_t seed) const override {
    return std::make_unique<SyncingProblem>(inner_.make_problem(scale, seed));
  }

 private:
  const Operator& inner_;
};

TEST_F(GraphReplayGpu, UncapturableLaunchFallsBackWithTheReason) {
  const Operator* inner = smallest("elementwise", Impl::Own);
  ASSERT_NE(inner, nullptr);
  const SyncingOperator op(*inner);
  const OperatorResult r = timed(op, cfg_);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.timing.has_value());
  const TimingResult& t = *r.timing;
  EXPECT_EQ(t.mode, launch_blocking_in_effect() ? LaunchMode::Blocking : LaunchMode::Async);  // the suite runs blocking
  EXPECT_EQ(t.graph_batch, 0);
  EXPECT_NE(t.graph_fallback.find("cudaStreamSynchronize"), std::string::npos) << t.graph_fallback;
  EXPECT_NE(t.graph_fallback.find("cudaErrorStreamCapture"), std::string::npos) << t.graph_fallback;
  ASSERT_FALSE(t.samples_ms.empty());
  for (double s : t.samples_ms) ASSERT_GT(s, 0);
}

// A launch that ignores the errors capture gives it: the capture ends invalidated, and after the
// fallback the same stream captures and replays a good launch.
TEST_F(GraphReplayGpu, InvalidatedCaptureLeavesTheStreamUsable) {
  CudaStream stream;
  DeviceBuffer buf(1 << 20);
  const size_t l2 = static_cast<size_t>(device_.l2_bytes);
  const LaunchFn careless = [&](cudaStream_t s) {
    (void)cudaStreamSynchronize(s);
    (void)cudaMemsetAsync(buf.get(), 0, buf.bytes(), s);
    (void)cudaGetLastError();
  };
  const TimingResult bad = time_graph_replays(careless, stream.get(), cfg_, l2, 4);
  EXPECT_NE(bad.mode, LaunchMode::Graph);
  EXPECT_NE(bad.graph_fallback.find("cudaStreamEndCapture"), std::string::npos) << bad.graph_fallback;
  EXPECT_FALSE(bad.samples_ms.empty());

  const TimingResult empty = time_graph_replays([](cudaStream_t) {}, stream.get(), cfg_, l2, 4);
  EXPECT_NE(empty.graph_fallback.find("no work"), std::string::npos) << empty.graph_fallback;

  const LaunchFn good = [&](cudaStream_t s) { ARCHBENCH_CUDA_CHECK(cudaMemsetAsync(buf.get(), 1, buf.bytes(), s)); };
  const TimingResult ok = time_graph_replays(good, stream.get(), cfg_, l2, 4);
  EXPECT_EQ(ok.mode, LaunchMode::Graph) << ok.graph_fallback;
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

}  // namespace
}  // namespace archbench
