// --filter / --dtype → operators, with the usage errors both run and list report.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "harness/ops/registry.hpp"

namespace archbench::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws UsageError for an unknown dtype or a filter that matches no operator.
[[nodiscard]] std::vector<const Operator*> select_operators(const std::string& filter,
                                                            const std::vector<std::string>& dtypes);

}  // namespace archbench::cli
