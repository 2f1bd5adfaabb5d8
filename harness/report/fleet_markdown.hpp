// The fleet matrix as GitHub-flavoured Markdown, for $GITHUB_STEP_SUMMARY: a per-device
// summary, the problems (failures and regressions) first, then the full matrix. GitHub refuses a
// step summary over 1 MiB, so the text is cut at `limit_bytes` with a note saying what was left out.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "harness/report/fleet_matrix.hpp"

namespace archbench {

inline constexpr size_t kStepSummaryLimit = 1000 * 1024;  // under GitHub's 1024k, with room for other steps' lines

[[nodiscard]] std::string fleet_to_markdown(const FleetMatrix& m, size_t limit_bytes = kStepSummaryLimit);

// Text safe inside a Markdown table cell: '|' escaped, HTML-significant characters as entities,
// newlines as spaces.
[[nodiscard]] std::string markdown_cell(std::string_view text);

}  // namespace archbench
