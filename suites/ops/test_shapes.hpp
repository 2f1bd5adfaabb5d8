// ARCHBENCH_TEST_SHAPES: which shapes the GPU suite's operator tests run. Unset, empty or "full":
// the check scale and then the benchmark shape (the default); "check": the check scale only, for
// the compute-sanitizer tools that take minutes per operator at benchmark shapes
// (ci/h200_sanitizers.sh). Any other value is a mistake and fails the test, rather than silently
// running one or the other.
#pragma once

#include <optional>
#include <string_view>

namespace archbench {

inline constexpr const char* kTestShapesVariable = "ARCHBENCH_TEST_SHAPES";

enum class TestShapes { Full, CheckOnly };

// The variable's value (nullptr when unset) as TestShapes; nullopt for an unknown value.
[[nodiscard]] inline std::optional<TestShapes> parse_test_shapes(const char* value) {
  if (value == nullptr) return TestShapes::Full;
  const std::string_view v = value;
  if (v.empty() || v == "full") return TestShapes::Full;
  if (v == "check") return TestShapes::CheckOnly;
  return std::nullopt;
}

}  // namespace archbench
