// Runs one phase in a fresh archbench process. The check phase needs CUDA_LAUNCH_BLOCKING=1
// from before CUDA initialises and the timing phase needs it off, so they cannot share a
// process; a worker that crashes also costs only the operators it had not reported yet.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/report/result.hpp"

namespace archbench::cli {

struct WorkerOutcome {
  std::vector<OperatorResult> results;  // in the order the worker reported them
  std::optional<Ceilings> ceilings;
  std::string failure;  // non-empty when the worker did not exit 0
};

[[nodiscard]] WorkerOutcome run_worker(const std::string& phase, int device, const std::vector<std::string>& ids,
                                       uint64_t seed, bool hot_l2);

// The worker's side: one JSON object per line, flushed as soon as it is known.
void append_line(const std::string& path, const std::string& json_line);

}  // namespace archbench::cli
