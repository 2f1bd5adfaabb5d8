// --filter / --dtype → operators, with the usage errors run, list and doctor report.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/ops/registry.hpp"
#include "harness/result/result.hpp"

namespace archbench::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws UsageError for an unknown dtype or a filter that matches no operator (with a suggestion).
[[nodiscard]] std::vector<const Operator*> select_operators(const std::string& filter,
                                                            const std::vector<std::string>& dtypes);

// select_operators for `archbench COMMAND`: nullopt, with "archbench COMMAND: <why>" on stderr, for
// a usage error (the caller then exits with kUsage).
[[nodiscard]] std::optional<std::vector<const Operator*>> select_or_explain(const char* command,
                                                                            const std::string& filter,
                                                                            const std::vector<std::string>& dtypes);

// What the selection kept of the registry, for summaries and the run JSON.
[[nodiscard]] Selection selection_of(const std::string& filter, const std::vector<std::string>& dtypes,
                                     size_t selected);

}  // namespace archbench::cli
