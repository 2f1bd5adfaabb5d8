#include "harness/result/worker_fault.hpp"

#include "harness/util/enum_names.hpp"

namespace archbench {

std::string_view worker_fault_name(WorkerFault f) {
  switch (f) {
    case WorkerFault::None: return "";
    case WorkerFault::ContextLost: return "context-lost";
    case WorkerFault::Crashed: return "crashed";
    case WorkerFault::Hung: return "hung";
  }
  return "?";
}

std::optional<WorkerFault> parse_worker_fault(std::string_view name) {
  return parse_by_name(kWorkerFaults, worker_fault_name, name);
}

}  // namespace archbench
