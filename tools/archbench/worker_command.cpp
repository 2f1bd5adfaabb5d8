// The worker side of a run phase (`archbench worker --request FILE`, started by worker_process):
// runs the task's operators on one device and reports each as soon as it is done
// (worker_protocol.hpp).
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "harness/device/environment.hpp"
#include "harness/ops/registry.hpp"
#include "harness/run/ceilings.hpp"
#include "harness/run/image_probe.hpp"
#include "harness/run/phases.hpp"
#include "harness/util/cuda_check.hpp"
#include "harness/util/cuda_raii.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/work_queue.hpp"
#include "tools/archbench/worker_process.hpp"
#include "tools/archbench/worker_protocol.hpp"

namespace archbench::cli {
namespace {

const Operator* find_operator(const std::string& id) {
  for (const auto& op : registry().all()) {
    if (op->id() == id) return op.get();
  }
  return nullptr;
}

// The first load of the operator's kernels: under lazy loading this is where the driver loads (and,
// for PTX, JIT-compiles) their module. The doctor's JIT cost is the difference between a
// forced-JIT pass and a SASS pass.
double first_load_ms(const Operator& op) {
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& k : op.kernels()) {
    if (k.host_stub == nullptr) continue;  // not in this build (a single-target kernel): nothing to load
    cudaFuncAttributes attr{};
    if (cudaFuncGetAttributes(&attr, k.host_stub) != cudaSuccess) cudaGetLastError();  // the probe reports it
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int worker_command(const std::string& request_path) {
  WorkerTask task;
  try {
    task = read_task(request_path);
  } catch (const std::exception& e) {
    std::cerr << "archbench worker: " << e.what() << "\n";
    return kUsage;
  }
  const Environment env = probe_environment();
  if (!env.usable() || task.device < 0 || task.device >= static_cast<int>(env.devices.size())) {
    std::cerr << "archbench worker: device " << task.device << " is not usable: " << env.device_count_error_text << "\n";
    return kNoDevice;
  }
  ARCHBENCH_CUDA_CHECK(cudaSetDevice(task.device));
  if (task.load_times) ARCHBENCH_CUDA_CHECK(cudaFree(nullptr));  // the context exists before the first load is timed
  const DeviceInfo& dev = env.devices[static_cast<size_t>(task.device)];
  const std::string& reply = task.reply_path;

  std::optional<Ceilings> ceilings;
  TimerConfig cfg;
  cfg.cold_l2 = !task.hot_l2;
  cfg.cuda_graph = task.cuda_graph;
  cfg.device_uuid = dev.uuid;
  if (task.phase == Phase::Time) {
    CudaStream stream;
    // The FP8 ceiling only for a run with FP8 operators, on a device that has FP8 tensor cores.
    const bool fp8 = dev.cc >= arch::ComputeCapability{8, 9} &&
                     std::ranges::any_of(task.operators, [](const OperatorResult& r) {
                       const Operator* op = find_operator(r.id);
                       return op != nullptr && is_fp8(op->spec().dtype);
                     });
    ceilings = measure_ceilings(stream.get(), static_cast<size_t>(dev.l2_bytes), dev.uuid, fp8);
    send(reply, {WorkerMessage::Kind::Ceilings, "", 0, ceilings, std::nullopt});
  }
  // The next operator: in order, or the next one no other worker of the phase has taken.
  size_t position = 0;
  const auto next = [&]() -> std::optional<size_t> {
    if (!task.queue_path.empty()) return take_from_work_queue(task.queue_path, task.operators.size());
    if (position == task.operators.size()) return std::nullopt;
    return position++;
  };
  for (std::optional<size_t> i = next(); i; i = next()) {
    OperatorResult& r = task.operators[*i];
    const Operator* op = find_operator(r.id);
    if (op == nullptr) {
      std::cerr << "archbench worker: unknown operator " << r.id << "\n";
      return kInternal;
    }
    send(reply, {WorkerMessage::Kind::Start, r.id, 0, std::nullopt, std::nullopt});
    if (task.load_times && task.phase == Phase::Check && !(dev.cc < op->spec().min_cc) && !op->kernels().empty()) {
      send(reply, {WorkerMessage::Kind::Load, r.id, first_load_ms(*op), std::nullopt, std::nullopt});
    }
    const auto started = std::chrono::steady_clock::now();
    if (task.phase == Phase::Check && task.probe_only) r.image = probe_image(*op, build_manifest(), env.facts(dev));
    else if (task.phase == Phase::Check) check_operator(*op, build_manifest(), env.facts(dev), task.seed, r, CheckOptions{!task.quick});
    else time_operator(*op, *ceilings, static_cast<size_t>(dev.l2_bytes), cfg, task.seed, r);
    r.phase_seconds[task.phase] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // A sticky error (illegal address, trap, ...) leaves this context unusable: report the
    // operator that caused it and let the parent start a fresh worker for the rest.
    const cudaError_t state = cudaDeviceSynchronize();
    const bool context_lost = is_sticky_error(state);
    if (context_lost) {
      r.fault = WorkerFault::ContextLost;
      if (r.error.empty()) r.error = describe_cuda_error(state);
    }
    send(reply, {WorkerMessage::Kind::Operator, r.id, 0, std::nullopt, r});
    if (context_lost) return kWorkerContextLost;
  }
  return kOk;
}

}  // namespace

void add_worker_command(CLI::App& app, Commands& commands) {
  auto [cmd, request] = add_command(app, commands, "worker", "internal: one phase of a run in a fresh process", worker_command);
  cmd->group("");  // hidden from --help
  cmd->add_option("--request", *request, "the task (worker_protocol.hpp), written by the parent")->required();
}

}  // namespace archbench::cli
