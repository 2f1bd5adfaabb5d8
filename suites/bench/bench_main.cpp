// Google Benchmark suite: one benchmark per registered operator × dtype × shape, timed with
// CUDA events (manual time) with the L2 flushed before every iteration. Operators without an
// image on this device are skipped with the reason.
#include <benchmark/benchmark.h>

#include "harness/device/environment.hpp"
#include "harness/ops/registry.hpp"
#include "harness/run/image_probe.hpp"
#include "harness/run/timer.hpp"
#include "harness/util/cuda_raii.hpp"

namespace {

using namespace archbench;

void run_operator(benchmark::State& state, const Operator* op) {
  static const Environment env = probe_environment();
  if (!env.usable()) {
    state.SkipWithError(("no usable CUDA device: " + env.device_count_error_text).c_str());
    return;
  }
  const DeviceInfo& dev = env.devices.front();
  const ImageResult image = probe_image(*op, build_manifest(), env.facts(dev));
  if (!image.runs()) {
    state.SkipWithError((image.label + ": " + image.cause).c_str());
    return;
  }
  try {
    CudaStream stream;
    SampleTimer timer(static_cast<size_t>(dev.l2_bytes), /*cold_l2=*/true);
    auto problem = op->make_problem(ProblemScale::Bench, 42);
    problem->launch(stream.get());  // warm-up: module load, JIT, library heuristics
    ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    const LaunchFn launch = [&](cudaStream_t s) { problem->launch(s); };
    for (auto _ : state) state.SetIterationTime(timer.sample_ms(launch, stream.get()) * 1e-3);
    // Rates over manual time: shown as FLOP=277T/s and bytes=203G/s.
    state.counters["FLOP"] = benchmark::Counter(op->spec().flops, benchmark::Counter::kIsIterationInvariantRate,
                                                benchmark::Counter::kIs1000);
    state.counters["bytes"] = benchmark::Counter(op->spec().bytes, benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
    state.SetLabel(image.label);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (const auto& op : archbench::registry().all()) {
    benchmark::RegisterBenchmark(op->id().c_str(), run_operator, op.get())
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond)
        ->MinTime(0.2);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
