// Quantiles of samples, one definition for the whole program (the timing summary, the baseline and
// its comparison): linear interpolation between order statistics (Hyndman and Fan's type 7, R's
// default), so the median of an even count is the mean of the two middle values.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace archbench {

// The q-quantile (0 <= q <= 1) of values already sorted ascending; 0 for none.
[[nodiscard]] inline double quantile_of_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

// The median of values in any order; 0 for none.
[[nodiscard]] inline double median(std::vector<double> v) {
  std::ranges::sort(v);
  return quantile_of_sorted(v, 0.5);
}

}  // namespace archbench
