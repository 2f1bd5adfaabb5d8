// The stack `archbench scan` judges when given no PATH: the site-packages of a Python
// interpreter (python3, or --python EXE), plus the CUDA libraries its binaries link that the
// dynamic loader would take from outside the environment (LD_LIBRARY_PATH, the loader cache,
// the toolkit's lib64).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/stack/inventory.hpp"

namespace archbench::stack {

struct PythonEnvironment {
  std::string executable;
  std::string version;                 // "3.12.3"
  std::string prefix;                  // sys.prefix
  std::vector<std::string> site_dirs;  // purelib, platlib and site.getsitepackages(), existing, no duplicates
};

// Runs the interpreter once to ask it; nullopt with `error` set when it cannot be run or answers nonsense.
[[nodiscard]] std::optional<PythonEnvironment> ask_python(const std::string& python, std::string& error);

// Linked CUDA libraries (DT_NEEDED) that no scanned file provides, resolved as the loader would.
[[nodiscard]] std::vector<std::string> outside_cuda_libraries(const Inventory& inv);

}  // namespace archbench::stack
