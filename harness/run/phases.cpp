#include "harness/run/phases.hpp"

#include <string>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "harness/run/ceilings.hpp"
#include "harness/run/graph_replay.hpp"
#include "harness/run/image_probe.hpp"
#include "harness/run/test_slowdown.hpp"
#include "harness/vendor/cublas_check.hpp"
#include "harness/util/cuda_raii.hpp"

namespace archbench {
namespace {

// Runs `body`, turning CUDA and library failures into the result's error fields.
template <typename Body>
void guarded(OperatorResult& r, Body body) {
  try {
    body();
  } catch (const LibraryError& e) {
    r.image.status = ImageOutcome::LibraryError;
    r.image.label = e.library() + " " + e.status();
    r.image.cause = e.what();
    r.error = e.what();
  } catch (const std::exception& e) {
    r.error = e.what();
  }
}

}  // namespace

OperatorResult describe(const Operator& op) {
  const auto& s = op.spec();
  OperatorResult r;
  r.id = op.id();
  r.family = s.family;
  r.name = s.name;
  r.dtype = s.dtype;
  r.shape = s.shape;
  r.model = s.model;
  r.impl = s.impl;
  r.flops = s.flops;
  r.bytes = s.bytes;
  return r;
}

void enable_launch_blocking() { setenv("CUDA_LAUNCH_BLOCKING", "1", 1); }

bool launch_blocking_in_effect() {
  const char* v = std::getenv("CUDA_LAUNCH_BLOCKING");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

void check_operator(const Operator& op, const BuildManifest& build, const arch::DeviceFacts& device, uint64_t seed,
                    OperatorResult& r, const CheckOptions& options) {
  r.image = probe_image(op, build, device);
  if (!r.image.runs()) return;
  guarded(r, [&] {
    CudaStream stream;
    CorrectnessResult c;
    c.seed = seed;
    c.scope = options.bench_shape_pass ? CheckScope::Full : CheckScope::Quick;
    c.mode = launch_blocking_in_effect() ? LaunchMode::Blocking : LaunchMode::Async;
    {
      auto p = op.make_problem(ProblemScale::Check, seed);
      c.check_shape = p->shape();
      p->poison_output();
      p->launch(stream.get());
      ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      static_cast<CheckResult&>(c) = p->check();
    }
    if (options.bench_shape_pass) {
      auto big = op.make_problem(ProblemScale::Bench, seed + 1);
      big->poison_output();
      big->launch(stream.get());
      ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      c.bench_shape_finite = big->check_finite().passed;
      r.implementation = big->implementation();
    }
    r.correctness = c;
  });
}

void time_operator(const Operator& op, const Ceilings& ceilings, size_t l2_bytes, const TimerConfig& cfg,
                   uint64_t seed, OperatorResult& r) {
  guarded(r, [&] {
    CudaStream stream;
    auto p = op.make_problem(ProblemScale::Bench, seed);
    r.implementation = p->implementation();
    LaunchFn launch = [&](cudaStream_t s) { p->launch(s); };
    TestSlowdown slowdown = TestSlowdown::for_operator(op.id());
    // Pilot: a short timing of the operator alone, one launch per sample. It decides CUDA-graph
    // replay and calibrates the test slowdown (so an injected slowdown never changes the mode).
    std::optional<TimingResult> pilot;
    if (slowdown.active() || cfg.cuda_graph != CudaGraphMode::Off) {
      TimerConfig pilot_cfg = cfg;
      pilot_cfg.min_samples = 10;
      pilot_cfg.max_seconds = 0.2;
      pilot = time_launches(launch, stream.get(), pilot_cfg, l2_bytes);
    }
    // Mode: graph replay for launch-bound operators, else one launch per sample.
    const bool replayed = pilot && graph_replay_wanted(cfg.cuda_graph, pilot->median_ms);
    if (slowdown.active()) launch = slowdown.wrap(std::move(launch), *pilot, replayed, stream.get(), l2_bytes);
    // Samples.
    TimingResult t =
        replayed ? time_graph_replays(launch, stream.get(), cfg, l2_bytes,
                                      graph_batch_for(pilot->median_ms * (1 + slowdown.fraction())))
                 : time_launches(launch, stream.get(), cfg, l2_bytes);
    slowdown.record(t);
    if (t.mode != LaunchMode::Graph) t.mode = launch_blocking_in_effect() ? LaunchMode::Blocking : LaunchMode::Async;
    // Roofline.
    apply_roofline(t, op.spec().flops, op.spec().bytes, op.spec().dtype, ceilings);
    r.timing = t;
  });
}

}  // namespace archbench
