#include "harness/run/phases.hpp"

#include <string>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "harness/ops/id_filter.hpp"
#include "harness/run/ceilings.hpp"
#include "harness/run/graph_replay.hpp"
#include "harness/run/image_probe.hpp"
#include "harness/run/spin_delay.hpp"
#include "harness/run/spin_plan.hpp"
#include "harness/util/cublas_check.hpp"
#include "harness/util/cuda_raii.hpp"

namespace archbench {
namespace {

// Runs `body`, turning CUDA and library failures into the result's error fields.
template <typename Body>
void guarded(OperatorResult& r, Body body) {
  try {
    body();
  } catch (const LibraryError& e) {
    r.image.status = ImageVerdict::LibraryError;
    r.image.label = e.library() + " " + e.status();
    r.image.cause = e.what();
    r.error = e.what();
  } catch (const std::exception& e) {
    r.error = e.what();
  }
}

// ARCHBENCH_TEST_SLOWDOWN="<filter>=<fraction>" slows the operators the --filter language matches
// (test-only: docs/testing.md, "The test-only slowdown knob").
double injected_slowdown_for(const std::string& id) {
  const char* knob = std::getenv("ARCHBENCH_TEST_SLOWDOWN");
  if (knob == nullptr) return 0;
  const std::string k = knob;
  const auto eq = k.rfind('=');
  if (eq == std::string::npos) throw std::invalid_argument("ARCHBENCH_TEST_SLOWDOWN must be <glob>=<fraction>");
  if (!id_matches(k.substr(0, eq), id)) return 0;
  return std::stod(k.substr(eq + 1));
}

}  // namespace

OperatorResult describe(const Operator& op) {
  const auto& s = op.spec();
  OperatorResult r;
  r.id = op.id();
  r.family = s.family;
  r.name = s.name;
  r.dtype = std::string(dtype_name(s.dtype));
  r.shape = s.shape;
  r.model = s.model;
  r.impl = std::string(impl_name(s.impl));
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
      const CheckResult k = p->check();
      c.passed = k.passed;
      c.rel_error = k.rel_error;
      c.max_abs_error = k.max_abs_error;
      c.tolerance = k.tolerance;
      c.non_finite = k.non_finite;
      c.elements = k.elements;
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
    const double slowdown = injected_slowdown_for(op.id());
    // A short pilot of the operator alone, one launch per sample: it calibrates the injected
    // slowdown and decides CUDA-graph replay (so an injected slowdown never changes the mode).
    std::optional<TimingResult> pilot;
    if (slowdown > 0 || cfg.cuda_graph != CudaGraphMode::Off) {
      TimerConfig pilot_cfg = cfg;
      pilot_cfg.min_samples = 10;
      pilot_cfg.max_seconds = 0.2;
      pilot = time_launches(launch, stream.get(), pilot_cfg, l2_bytes);
    }
    const bool replayed = pilot && graph_replay_wanted(cfg.cuda_graph, pilot->median_ms);
    double delay_ms = 0;
    if (slowdown > 0) {
      // A spin of that fraction of the operator's median, at the SM clock it runs at, after
      // every launch, inside the timed region (inside the captured graph under replay, where the
      // operator's own per-launch time is usually below its pilot's, so the fraction is larger).
      // Launched one by one, the spin's own fixed cost counts toward the delay (spin_plan.hpp);
      // inside a graph its launch gap mostly disappears, so none is counted there.
      int khz = 0;
      int device = 0;
      ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
      ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
      const double mhz = pilot->median_sm_mhz > 0 ? pilot->median_sm_mhz : khz / 1000.0;
      const double overhead_ms = replayed ? 0.0 : measure_spin_overhead_ms(stream.get(), l2_bytes);
      const SpinPlan plan = plan_spin_delay(slowdown, pilot->median_ms, overhead_ms, mhz);
      delay_ms = plan.delay_ms;
      launch = [&, cycles = plan.cycles](cudaStream_t s) {
        p->launch(s);
        launch_spin_delay(cycles, s);
      };
    }
    TimingResult t;
    if (replayed) {
      t = time_graph_replays(launch, stream.get(), cfg, l2_bytes, graph_batch_for(pilot->median_ms * (1 + slowdown)));
    } else {
      t = time_launches(launch, stream.get(), cfg, l2_bytes);
    }
    t.injected_slowdown = slowdown;
    t.injected_delay_ms = delay_ms;
    if (t.mode != LaunchMode::Graph) t.mode = launch_blocking_in_effect() ? LaunchMode::Blocking : LaunchMode::Async;
    apply_roofline(t, op.spec().flops, op.spec().bytes, op.spec().dtype, ceilings);
    r.timing = t;
  });
}

}  // namespace archbench
