// ARCHBENCH_UNDER_SANITIZER: set to the tool's name by ci/h200_sanitizers.sh. Under
// compute-sanitizer every kernel is instrumented and slowed by its own factor, so a test that
// compares two timings (a replay against single launches, an injected slowdown against none)
// would fail for the tool's sake, not the code's. Such tests still run their kernels and check
// everything else; they leave out only the timing ratio, and say so.
#pragma once

#include <cstdlib>
#include <string>

namespace archbench {

inline constexpr const char* kUnderSanitizerVariable = "ARCHBENCH_UNDER_SANITIZER";

// The tool's name, or "" when the tests run as they are.
[[nodiscard]] inline std::string sanitizer_tool() {
  const char* v = std::getenv(kUnderSanitizerVariable);
  return v == nullptr ? std::string() : std::string(v);
}

}  // namespace archbench
