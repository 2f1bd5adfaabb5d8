#include "tools/archbench/selection.hpp"

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "harness/ops/id_filter.hpp"

namespace archbench::cli {

std::vector<const Operator*> select_operators(const std::string& filter, const std::vector<std::string>& dtypes) {
  std::vector<DType> parsed;
  for (const auto& d : dtypes) {
    auto p = parse_dtype(d);
    if (!p) throw UsageError("unknown dtype '" + d + "' (known: f32, tf32, f16, bf16)");
    parsed.push_back(*p);
  }
  auto ops = registry().select(filter, parsed);
  if (!ops.empty()) return ops;
  if (!registry().select(filter, {}).empty()) {
    throw UsageError("--filter '" + filter + "' matches operators, but none of the given --dtype; `archbench list "
                     "--filter '" + filter + "'` shows their dtypes");
  }
  std::vector<std::string> ids;
  for (const auto& op : registry().all()) ids.push_back(op->id());
  throw UsageError(no_match_message(filter, ids, "operator", "`archbench list` shows the ids"));
}

std::optional<std::vector<const Operator*>> select_or_explain(const char* command, const std::string& filter,
                                                             const std::vector<std::string>& dtypes) {
  try {
    return select_operators(filter, dtypes);
  } catch (const UsageError& e) {
    std::cerr << "archbench " << command << ": " << e.what() << "\n";
    return std::nullopt;
  }
}

Selection selection_of(const std::string& filter, const std::vector<std::string>& dtypes, size_t selected) {
  return Selection{filter, dtypes, selected, registry().all().size()};
}

}  // namespace archbench::cli
