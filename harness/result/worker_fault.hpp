// How the worker running an operator ended abnormally, when it did. Its name is the run JSON's
// "fault" (null for None).
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace archbench {

enum class WorkerFault {
  None,         // the worker reported the operator
  ContextLost,  // "context-lost": a sticky CUDA error (illegal address, trap, ...); the worker was replaced
  Crashed,      // "crashed": the worker died with a signal while running it
  Hung,         // "hung": no result before the operator's deadline; the worker was killed
};

inline constexpr std::array kWorkerFaults = {WorkerFault::None, WorkerFault::ContextLost, WorkerFault::Crashed,
                                             WorkerFault::Hung};

[[nodiscard]] std::string_view worker_fault_name(WorkerFault f);  // "", "context-lost", "crashed", "hung"
// The fault of a name; nullopt for a name this archbench does not know.
[[nodiscard]] std::optional<WorkerFault> parse_worker_fault(std::string_view name);

}  // namespace archbench
