// The single list of operators. The CLI, the GoogleTest suites and the Google Benchmark suite
// all enumerate it; a family adds itself in kernels/register_all.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/ops/operator.hpp"

namespace archbench {

class Registry {
 public:
  void add(std::unique_ptr<Operator> op);
  [[nodiscard]] const std::vector<std::unique_ptr<Operator>>& all() const { return ops_; }
  // Operators whose id matches the filter (comma-separated fnmatch globs; "*" = all) and whose dtype is listed
  // (empty = all).
  [[nodiscard]] std::vector<const Operator*> select(const std::string& glob, const std::vector<DType>& dtypes) const;

 private:
  std::vector<std::unique_ptr<Operator>> ops_;
};

// Test executables add operators of their own (the fault-injection family) by defining a static
// TestOperators object; registry() appends them after the families. archbench itself has none.
struct TestOperators {
  using AddFn = void (*)(Registry&);
  explicit TestOperators(AddFn add);
  static std::vector<AddFn>& all();
};

// Every operator this build has, registered once (defined in kernels/register_all.cpp, the
// one place that lists the families).
[[nodiscard]] const Registry& registry();

}  // namespace archbench
