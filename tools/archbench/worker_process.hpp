// Runs one phase in fresh archbench processes. The check phase needs CUDA_LAUNCH_BLOCKING=1
// from before CUDA initialises and the timing phase needs it off, so they cannot share a
// process. The parent never initialises CUDA for this: workers are started with posix_spawn
// (a fresh exec, never a fork of a process with a CUDA context).
//
// Isolation: the worker announces each operator before running it and reports it as soon as it
// is done. When a worker ends early — a sticky CUDA error left its context unusable, it crashed,
// or it ran past the operator's deadline and was killed (SIGTERM, then SIGKILL) — the operator it
// was running gets that fault as its verdict, and a new worker continues with the next one.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/result/phase.hpp"
#include "harness/result/result.hpp"
#include "tools/archbench/worker_protocol.hpp"

namespace archbench::cli {

// The worker's exit status after a sticky CUDA error (its last reported operator says which).
inline constexpr int kWorkerContextLost = 86;

struct OperatorFault {
  std::string id;
  WorkerFault fault = WorkerFault::Crashed;  // Crashed or Hung (ContextLost comes in the worker's own result)
  std::string error;
};

struct WorkerOutcome {
  std::vector<OperatorResult> results;  // in the order the workers reported them
  std::vector<OperatorFault> faults;    // operators a worker died or hung on
  std::optional<Ceilings> ceilings;
  int workers_started = 0;
  std::string failure;  // non-empty when a worker failed in a way that stopped the phase
  std::map<std::string, double> load_ms;  // with load_times: each operator's first kernel load, ms
};

// What the supervisor sees as it happens, for progress display: an operator announced
// (Started), reported (Finished, with its result) or lost with its worker (Fault: hung or crashed).
struct WorkerEvent {
  enum class Kind { Started, Finished, Fault };
  Kind kind = Kind::Started;
  std::string id;
  const OperatorResult* result = nullptr;  // Finished only; valid during the call
  WorkerFault fault = WorkerFault::None;   // Fault only
};

// Seconds an operator may run before its worker is declared hung.
using DeadlineFn = std::function<double(const std::string& id)>;

struct WorkerRequest {
  // What each worker is asked (worker_protocol.hpp): run_phase gives each worker it starts the
  // operators still to run and a reply file of its own.
  WorkerTask task;
  DeadlineFn deadline_s = [](const std::string&) { return 600.0; };
  std::string executable;  // empty: this executable (/proc/self/exe)
  // Environment changes for the workers, in effect before CUDA starts in them: a value sets the
  // variable, nullopt removes it (the doctor's JIT passes: CUDA_FORCE_PTX_JIT, CUDA_CACHE_*).
  std::vector<std::pair<std::string, std::optional<std::string>>> env{};
  std::function<void(const WorkerEvent&)> on_event{};  // optional; called on the supervising thread
};

[[nodiscard]] WorkerOutcome run_phase(const WorkerRequest& request);

// The same phase split over `workers` worker processes at once, which take the operators one at a
// time from a queue they share (work_queue.hpp), each supervised on its own thread; a worker that
// replaces a crashed or hung one goes on taking from the same queue; on_event is serialised. For
// the check phase, whose time is mostly spent on the host (inputs, float64 references, library
// set-up) while the device waits: more workers keep it busy. Outcomes merged: results and faults
// of all, the failures joined.
[[nodiscard]] WorkerOutcome run_phase_parallel(const WorkerRequest& request, int workers);

// How many check workers run at once on a device: half the cores, 1 to 8, and at most one per
// 4 GiB of device memory for the quick tier (a CUDA context and check-shape buffers) or per
// 16 GiB for the full check (its benchmark-shape pass holds up to about 5 GB: the attention
// score matrix of Flux's 4608 tokens), so that a 24 GB card checks with one.
[[nodiscard]] int check_workers(size_t device_memory_bytes, bool quick);

}  // namespace archbench::cli
