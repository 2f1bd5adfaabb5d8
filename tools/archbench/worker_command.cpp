// The worker side of a run phase: runs the listed operators on one device and reports each
// as one JSON line as soon as it is done.
#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>
#include <string>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "harness/device/environment.hpp"
#include "harness/ops/registry.hpp"
#include "harness/result/result_json.hpp"
#include "harness/run/ceilings.hpp"
#include "harness/run/graph_replay.hpp"
#include "harness/run/image_probe.hpp"
#include "harness/run/phases.hpp"
#include "harness/util/cuda_check.hpp"
#include "harness/util/cuda_raii.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/worker_process.hpp"

namespace archbench::cli {

int worker_command(const WorkerOptions& o) {
  std::vector<std::string> ids;
  {
    std::ifstream f(o.ids_path);
    for (std::string line; std::getline(f, line);) if (!line.empty()) ids.push_back(line);
  }
  const Environment env = probe_environment();
  if (!env.usable() || o.device < 0 || o.device >= static_cast<int>(env.devices.size())) {
    std::cerr << "archbench worker: device " << o.device << " is not usable: " << env.device_count_error_text << "\n";
    return kNoDevice;
  }
  ARCHBENCH_CUDA_CHECK(cudaSetDevice(o.device));
  if (o.load_times) ARCHBENCH_CUDA_CHECK(cudaFree(nullptr));  // the context exists before the first load is timed
  const DeviceInfo& dev = env.devices[static_cast<size_t>(o.device)];

  std::optional<Ceilings> ceilings;
  TimerConfig cfg;
  cfg.cold_l2 = !o.hot_l2;
  if (auto mode = parse_name(kCudaGraphModes, o.cuda_graph)) {
    cfg.cuda_graph = *mode;
  } else {
    std::cerr << "archbench worker: --cuda-graph must be off, auto or all, not '" << o.cuda_graph << "'\n";
    return kUsage;
  }
  cfg.device_uuid = dev.uuid;
  if (o.phase == Phase::Time) {
    CudaStream stream;
    // The FP8 ceiling only for a run with FP8 operators, on a device that has FP8 tensor cores.
    const bool fp8 = dev.cc >= arch::ComputeCapability{8, 9} &&
                     std::ranges::any_of(ids, [](const std::string& id) { return id.find("/e4m3/") != std::string::npos; });
    ceilings = measure_ceilings(stream.get(), static_cast<size_t>(dev.l2_bytes), dev.uuid, fp8);
    append_line(o.out_path, nlohmann::json{{"type", "ceilings"}, {"ceilings", *ceilings}}.dump());
  }
  for (const auto& id : ids) {
    const Operator* op = nullptr;
    for (const auto& candidate : registry().all()) if (candidate->id() == id) op = candidate.get();
    if (op == nullptr) {
      std::cerr << "archbench worker: unknown operator " << id << "\n";
      return kInternal;
    }
    append_line(o.out_path, nlohmann::json{{"type", "start"}, {"id", id}}.dump());
    if (o.load_times && o.phase == Phase::Check && !(dev.cc < op->spec().min_cc) && !op->kernels().empty()) {
      // The first load of the operator's kernels: under lazy loading this is where the driver
      // loads (and, for PTX, JIT-compiles) their module. The doctor's JIT cost is the difference
      // between a forced-JIT pass and a SASS pass.
      const auto t0 = std::chrono::steady_clock::now();
      for (const auto& k : op->kernels()) {
        if (k.host_stub == nullptr) continue;  // not in this build (a single-target kernel): nothing to load
        cudaFuncAttributes attr{};
        if (cudaFuncGetAttributes(&attr, k.host_stub) != cudaSuccess) cudaGetLastError();  // the probe reports it
      }
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      append_line(o.out_path, nlohmann::json{{"type", "load"}, {"id", id}, {"ms", ms}}.dump());
    }
    OperatorResult r = describe(*op);
    const auto started = std::chrono::steady_clock::now();
    if (o.phase == Phase::Check && o.probe_only) r.image = probe_image(*op, build_manifest(), env.facts(dev));
    else if (o.phase == Phase::Check) check_operator(*op, build_manifest(), env.facts(dev), o.seed, r, CheckOptions{!o.quick});
    else time_operator(*op, *ceilings, static_cast<size_t>(dev.l2_bytes), cfg, o.seed, r);
    r.phase_seconds[o.phase] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // A sticky error (illegal address, trap, ...) leaves this context unusable: report the
    // operator that caused it and let the parent start a fresh worker for the rest.
    const cudaError_t state = cudaDeviceSynchronize();
    const bool context_lost = is_sticky_error(state);
    if (context_lost) {
      r.fault = WorkerFault::ContextLost;
      if (r.error.empty()) r.error = describe_cuda_error(state);
    }
    append_line(o.out_path, nlohmann::json{{"type", "operator"}, {"result", r}}.dump());
    if (context_lost) return kWorkerContextLost;
  }
  return kOk;
}

}  // namespace archbench::cli
