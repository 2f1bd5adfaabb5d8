// How the worker running an operator ended abnormally, when it did. Its name is the run JSON's
// "fault" (null for None).
#pragma once

#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

enum class WorkerFault {
  None,         // the worker reported the operator
  ContextLost,  // a sticky CUDA error (illegal address, trap, ...); the worker was replaced
  Crashed,      // the worker died with a signal while running it
  Hung,         // no result before the operator's deadline; the worker was killed
};

inline constexpr auto kWorkerFaults = enum_names<WorkerFault>({
    {WorkerFault::None, ""},
    {WorkerFault::ContextLost, "context-lost"},
    {WorkerFault::Crashed, "crashed"},
    {WorkerFault::Hung, "hung"},
});

[[nodiscard]] constexpr std::string_view worker_fault_name(WorkerFault f) { return name_of(kWorkerFaults, f); }

}  // namespace archbench
