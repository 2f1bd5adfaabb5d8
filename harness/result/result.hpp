// The result model: what a run found for each operator, plus where and with what it ran.
// Writers (console, JSON) read it; nothing else decides what a result means.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/device/environment.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/ops/check_result.hpp"
#include "harness/ops/dtype.hpp"
#include "harness/ops/impl.hpp"
#include "harness/result/image_verdict.hpp"
#include "harness/result/launch_mode.hpp"
#include "harness/result/path_choice.hpp"
#include "harness/result/stop_reason.hpp"
#include "harness/result/operator_verdict.hpp"
#include "harness/result/phase.hpp"
#include "harness/result/worker_fault.hpp"

namespace archbench {

// The image verdict of one operator: the worst of its kernels', or the library's answer.
struct ImageResult {
  ImageOutcome status = ImageOutcome::NotProbed;
  std::string label;    // "sass sm_90", "ptx-jit from compute_80", "cuBLAS 13.1.0", ...
  std::string cause;
  std::string fix;
  bool agrees = true;   // runtime probe agrees with the static prediction
  std::string disagreement;
  std::string note;     // e.g. why the executable's own images could not be consulted
  struct Kernel {
    std::string name;
    std::string label;
    int runtime_error = 0;
    int binary_version = 0;
    int ptx_version = 0;
  };
  std::vector<Kernel> kernels;

  // The one rule for "this operator has an image that runs here": its own kernels load (SASS or
  // PTX JIT) or its library answered (status sass, ptx-jit or library).
  [[nodiscard]] bool runs() const {
    return status == ImageOutcome::Sass || status == ImageOutcome::PtxJit || status == ImageOutcome::Library;
  }
};

// What a correctness check covered: the check shape and the benchmark shape (every element
// written and finite), or the check shape only (archbench run --quick).
enum class CheckScope { Full, Quick };
[[nodiscard]] std::string_view check_scope_name(CheckScope s);  // "full", "quick"

// The check at the check shape (passed, errors, tolerance), and how and where it ran.
struct CorrectnessResult : CheckResult {
  CheckScope scope = CheckScope::Full;
  std::string check_shape;
  bool bench_shape_finite = false;  // the full shape: every element written and finite
  uint64_t seed = 0;
  LaunchMode mode = LaunchMode::Blocking;  // CUDA_LAUNCH_BLOCKING=1 during this check, or async
  // The error oracle (own low-precision kernels with a library twin): the twin's error on the
  // same inputs; the own kernel fails when its error exceeds kOracleFactor times it.
  std::string twin_id;
  std::optional<double> twin_rel_error;

  // The one rule for "the result is right": within tolerance at the check shape and, for a full
  // check, every element of the benchmark shape written and finite.
  [[nodiscard]] bool correct() const { return passed && !bench_shape_failed(); }
  // A full check whose benchmark-shape pass found unwritten or non-finite output (a quick check
  // never ran it: never true there).
  [[nodiscard]] bool bench_shape_failed() const { return scope == CheckScope::Full && !bench_shape_finite; }
};
inline constexpr double kOracleFactor = 3.0;

struct TimingResult {
  double median_ms = 0, q1_ms = 0, q3_ms = 0, min_ms = 0, max_ms = 0;
  std::vector<double> samples_ms;
  double tflops = 0;
  double gbps = 0;
  double pct_of_ceiling = 0;  // achieved / roofline bound from the device's measured ceilings
  std::string ceiling;        // which ceiling bounded it: "f16 tensor 741 TFLOP/s" or "DRAM 4.1 TB/s"
  LaunchMode mode = LaunchMode::Async;
  bool cold_l2 = true;
  // CUDA-graph replay (archbench run --cuda-graph): launches per replayed graph; each sample is
  // one replay's time / graph_batch. 0 when not replayed.
  int graph_batch = 0;
  std::string graph_fallback;  // why replay was asked for but the launches were timed one by one; empty otherwise
  // Why the stream was not held while the host enqueued a sample (harness/run/gpu_hold.hpp), so the
  // samples may include the call's host time; empty when every sample was held.
  std::string hold_fallback;
  // Clocks per sample through NVML (empty when NVML is unavailable).
  std::vector<unsigned> sm_mhz;
  std::vector<uint64_t> event_reasons;
  size_t throttled_samples = 0;  // samples taken under a power cap / thermal / hardware slowdown
  // The wait for the GPU to leave its power cap before the warm-up (harness/run/power_settle.hpp),
  // and whether it was still capped when the wait ended.
  double settle_ms = 0;
  bool settle_capped = false;
  double median_sm_mhz = 0;
  double median_cycles = 0;      // median time x median SM clock: comparable across clock drift
  double rel_noise = 0;          // standard error of the median / median
  StopReason stop_reason = StopReason::NotRecorded;
  double injected_slowdown = 0;  // test-only ARCHBENCH_TEST_SLOWDOWN fraction applied, 0 = none
  // What that knob added per launch, in ms: the fraction of the pilot's median, or the spin's fixed
  // cost when that is more (harness/run/spin_plan.hpp). 0 = none.
  double injected_delay_ms = 0;
  // Baselines built from several runs: each run's median (the samples above are pooled). Empty
  // for a single run. Run-to-run spread is usually far larger than the spread within a run.
  std::vector<double> run_medians_ms;
};

struct OperatorResult {
  std::string id, family, name;
  DType dtype = DType::F32;
  std::string shape, model;
  Impl impl = Impl::Own;
  double flops = 0, bytes = 0;
  ImageResult image;
  std::optional<CorrectnessResult> correctness;
  std::optional<TimingResult> timing;
  std::string error;  // a CUDA/library error while checking or timing
  // How the worker running this operator ended abnormally, when it did (worker_fault.hpp).
  WorkerFault fault = WorkerFault::None;
  // What a library twin chose at the benchmark shape (Problem::implementation); empty for own kernels.
  std::string implementation;
  // Wall time this operator took in each phase's worker (check: probe, inputs, launches, the
  // float64 reference; time: set-up and sampling): where a run's seconds go, per operator.
  std::map<Phase, double> phase_seconds;

  // Not "unsupported", and something went wrong: no image, wrong answer, disagreement, error.
  [[nodiscard]] bool failed() const;
  // "family/name": the operator's code path, over all its dtypes and shapes (the doctor's
  // per-variant findings, compare's unstable variants).
  [[nodiscard]] std::string variant() const { return family + "/" + name; }
};

// The ceilings of one device, measured at the start of the timing phase.
struct Ceilings {
  double f32_tflops = 0, tf32_tflops = 0, f16_tflops = 0, bf16_tflops = 0;
  double dram_gbps = 0;
  double e4m3_tflops = 0;  // cuBLASLt's FP8 GEMM; 0 on a device without FP8 tensor cores (below 8.9)
  // What an empty kernel measures under the operators' single-launch protocol (timer_floor.hpp);
  // 0 = not measured (results written before archbench measured it, or no image for the device).
  double timer_floor_ms = 0;
};

struct DeviceReport {
  DeviceInfo device;
  std::optional<Ceilings> ceilings;
  std::vector<OperatorResult> operators;
  // Wall time of each phase, workers and data preparation included: where a run's minutes go.
  std::map<Phase, double> phase_seconds;
  // Per problem with several own paths (matmul, attention), the one a dispatcher would pick here.
  std::vector<PathChoice> paths;
};

// Which operators a run was asked for: a filtered run checks only part of the registry, and its
// summary (and any comparison of it) must say so.
struct Selection {
  std::string filter = "*";
  std::vector<std::string> dtypes;  // empty = every dtype
  size_t selected = 0;
  size_t registered = 0;  // operators this build has
  [[nodiscard]] bool narrowed() const { return selected < registered; }
  // "12 of 196 operators (--filter 'matmul/*' --dtype f16); 184 left out", or "all 196 operators"
  [[nodiscard]] std::string describe() const;
};

struct RunReport {
  BuildManifest build;
  Environment environment;
  Selection selection;
  std::vector<DeviceReport> devices;
};

// One operator's verdict as the heat map and the fleet matrix show it: its image verdict, or
// Wrong / Error when the image ran but the result is wrong or the run failed.
[[nodiscard]] OperatorVerdict operator_verdict(const OperatorResult& r);

}  // namespace archbench
