// The --filter language of every command (run, list, compare, inspect, doctor): one or more
// fnmatch globs separated by commas; a name matches when any glob does ("matmul/*,*/f16/*").
// Operator ids never contain commas; kernel names may, and are matched whole.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archbench {

[[nodiscard]] bool id_matches(std::string_view filter, std::string_view id);

// For a filter that matched none of `names`: a nearby filter that matches some, e.g. 'gemm_tc'
// (a glob matches whole names) -> '*gemm_tc*', 'matmul/gemm_tcc/*' -> 'matmul/gemm_tc/*'.
[[nodiscard]] std::optional<std::string> suggest_filter(std::string_view filter, const std::vector<std::string>& names);

// The usage error for a filter that matched nothing: what, the suggestion, where to see the names.
// what: "operator" or "kernel"; where: "`archbench list` shows the ids".
[[nodiscard]] std::string no_match_message(std::string_view filter, const std::vector<std::string>& names,
                                           std::string_view what, std::string_view where);

}  // namespace archbench
