// Runs the framework probe (tools/framework/framework_probe.py) in the user's interpreter on a list
// of framework ops: `archbench framework` and the doctor's framework check run it the same way.
#pragma once

#include <string>
#include <vector>

#include "harness/framework/framework_op.hpp"
#include "tools/archbench/commands.hpp"

namespace archbench::cli {

struct ProbeRun {
  enum class Outcome {
    Exited,         // the probe ran to an end; `text` holds what it wrote (its answer, if it could)
    Timeout,        // stopped at the deadline (FrameworkOptions::timeout_s)
    NoInterpreter,  // the interpreter could not be started
  };
  Outcome outcome = Outcome::Exited;
  int exit_code = 0;  // the probe's (docs/framework.md, "Exit codes")
  std::string text;
};

// The request is written to a temporary directory, removed afterwards. Throws std::runtime_error
// when that directory cannot be made.
[[nodiscard]] ProbeRun run_framework_probe(const std::vector<framework::FrameworkOp>& ops, const FrameworkOptions& o);

}  // namespace archbench::cli
