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
    if (!p) {
      std::string known;
      for (DType k : values_of(kDTypes)) known += (known.empty() ? "" : ", ") + std::string(dtype_name(k));
      // "fp8" names two formats: say which spellings pick one.
      const std::string hint =
          d == "fp8" || d == "float8" ? "; FP8 is e4m3 or e5m2 (also fp8_e4m3, float8_e4m3fn, fp8_e5m2, float8_e5m2)" : "";
      throw UsageError("unknown dtype '" + d + "' (known: " + known + hint + ")");
    }
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
