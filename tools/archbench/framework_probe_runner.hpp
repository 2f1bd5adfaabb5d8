// Runs the framework probe (tools/framework/framework_probe.py) in the user's interpreter on a list
// of framework ops: `archbench framework` and the doctor's framework check run it the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/framework/framework_op.hpp"

namespace archbench::cli {

// archbench framework's options; the doctor's framework check fills them too.
struct FrameworkOptions {
  std::string python = "python3";  // the user's interpreter, whose torch is probed
  std::string filter = "*";        // over framework op ids and their registry twins' ids
  std::vector<std::string> dtypes;
  bool quick = false;              // images, backends and correctness; no timing
  bool list = false;               // the framework ops and their twins, nothing run
  std::string json_path;
  std::string html_path;  // the page of framework_page (harness/report/html_framework.hpp)
  std::string probe;               // the probe script (default: the one this build ships)
  std::string answer_path;         // judge this recorded probe answer (or framework JSON) instead of running
  std::string baseline_path;       // an earlier run to gate against (framework_compare.hpp)
  double timeout_s = 900;          // the whole probe's deadline
  std::vector<std::string> disable_sdpa_backends;  // forced fallback: the default dispatch without these
  std::vector<std::string> plugin_files;  // the user's own ops (docs/framework.md, "Your own ops")
  std::string steps = "sd15-unet,sdxl-unet,sd3-mmdit,flux-dit";  // denoiser steps (not in --quick); "none"
  uint64_t seed = 1;
};

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
