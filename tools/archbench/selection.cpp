#include <vector>
#include <string>
#include "tools/archbench/selection.hpp"

namespace archbench::cli {

std::vector<const Operator*> select_operators(const std::string& filter, const std::vector<std::string>& dtypes) {
  std::vector<DType> parsed;
  for (const auto& d : dtypes) {
    auto p = parse_dtype(d);
    if (!p) throw UsageError("unknown dtype '" + d + "' (known: f32, tf32, f16, bf16)");
    parsed.push_back(*p);
  }
  auto ops = registry().select(filter, parsed);
  if (ops.empty()) {
    throw UsageError("no operator matches --filter '" + filter + "'" +
                     (dtypes.empty() ? "" : " with the given --dtype") + "; `archbench list` shows the ids");
  }
  return ops;
}

}  // namespace archbench::cli
