// Layer 3, the build, for the user's own stack: the packages with device code in the active
// Python environment (python3), judged for every device present by the same code as
// `archbench scan` (harness/stack). A finding per package that does not run natively, one PASS
// line for those that do. The gathering runs the interpreter and reads the files; the check is
// pure and tested without a GPU.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/device/environment.hpp"
#include "harness/doctor/checklist.hpp"
#include "harness/stack/inventory.hpp"
#include "harness/stack/judgement.hpp"
#include "harness/stack/python_env.hpp"

namespace archbench::doctor {

struct PythonStackFacts {
  std::string python = "python3";
  std::optional<stack::PythonEnvironment> env;  // nullopt: the interpreter could not be asked
  std::string error;                            // why not
  stack::Inventory inventory;
  std::vector<stack::DeviceJudgement> judgements;  // one per device present
};

[[nodiscard]] PythonStackFacts gather_python_stack(const Environment& env, int nvcc_major,
                                                   const std::string& python = "python3");
void check_python_stack(const PythonStackFacts& facts, Checklist& out);

}  // namespace archbench::doctor
