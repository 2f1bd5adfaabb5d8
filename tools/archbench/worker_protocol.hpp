// What a run's parent and its worker processes say to each other. The parent writes a WorkerTask
// to a file and starts `archbench worker --request FILE`; the worker appends one WorkerMessage per
// line to the task's reply file, each flushed as soon as it is known: an operator's start (so that
// a crash or a hang is blamed on it), the device's ceilings (time phase), a kernel load time (the
// doctor's JIT cost) and an operator's result. Both travel as JSON through the field lists of
// worker_protocol.cpp and result_json.cpp.
//
// A task carries the operators' records, not only their ids: the check phase gets each operator's
// bare description, the time phase the checked result, which its worker completes with the timing
// and sends back whole. The parent joins a reply to its record by operator id and keeps the reply.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/result/phase.hpp"
#include "harness/result/result.hpp"
#include "harness/run/timer.hpp"

namespace archbench::cli {

struct WorkerTask {
  Phase phase = Phase::Check;
  int device = 0;
  std::vector<OperatorResult> operators;  // in the order to run them
  std::string reply_path;                 // where the worker appends its WorkerMessage lines
  // Empty: run every operator, in order. Otherwise the operators are shared with the phase's other
  // workers: take the next one from this queue (work_queue.hpp) until none is left.
  std::string queue_path;
  uint64_t seed = 0;
  bool hot_l2 = false;
  CudaGraphMode cuda_graph = CudaGraphMode::Off;  // time phase (archbench run --cuda-graph)
  bool load_times = false;  // check phase: also time each operator's first load of its kernels
  bool probe_only = false;  // check phase: the image probe only, no correctness run
  bool quick = false;       // check phase: the check shape only (archbench run --quick)
};

struct WorkerMessage {
  enum class Kind { Start, Ceilings, Load, Operator };
  Kind kind = Kind::Start;
  std::string id;                        // Start and Load: the operator
  double load_ms = 0;                    // Load: its first kernel load
  std::optional<Ceilings> ceilings;      // Ceilings
  std::optional<OperatorResult> result;  // Operator: the operator's record, completed by the phase
};
inline constexpr auto kWorkerMessageKinds = enum_names<WorkerMessage::Kind>({
    {WorkerMessage::Kind::Start, "start"},
    {WorkerMessage::Kind::Ceilings, "ceilings"},
    {WorkerMessage::Kind::Load, "load"},
    {WorkerMessage::Kind::Operator, "operator"},
});

void to_json(nlohmann::json& j, const WorkerTask& t);
void from_json(const nlohmann::json& j, WorkerTask& t);
void to_json(nlohmann::json& j, const WorkerMessage& m);
void from_json(const nlohmann::json& j, WorkerMessage& m);

// The task as a file (written whole, then renamed), and read back; reading throws
// std::runtime_error naming the file when it cannot be read or parsed.
void write_task(const std::string& path, const WorkerTask& task);
[[nodiscard]] WorkerTask read_task(const std::string& path);

// The worker's side: one message, one line, flushed before it returns.
void send(const std::string& reply_path, const WorkerMessage& message);

}  // namespace archbench::cli
