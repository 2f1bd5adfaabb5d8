// Robust two-sample statistics for timing comparisons (no normality assumed).
#pragma once

#include <vector>

namespace archbench::stats {

// Mann-Whitney U test, two-sided, normal approximation with tie correction (fine for the 20+
// samples archbench keeps per operator). Returns the p-value; 1 when either side is empty.
[[nodiscard]] double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);


}  // namespace archbench::stats
