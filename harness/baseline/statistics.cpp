#include "harness/baseline/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace archbench::stats {

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t n1 = a.size(), n2 = b.size();
  if (n1 == 0 || n2 == 0) return 1;
  std::vector<std::pair<double, int>> all;
  all.reserve(n1 + n2);
  for (double x : a) all.emplace_back(x, 0);
  for (double x : b) all.emplace_back(x, 1);
  std::ranges::sort(all, {}, &std::pair<double, int>::first);
  // Average ranks over ties; accumulate the tie correction sum(t^3 - t).
  double rank_sum_a = 0, ties = 0;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double avg_rank = (static_cast<double>(i) + static_cast<double>(j) + 1) / 2;  // ranks are 1-based
    for (size_t k = i; k < j; ++k) if (all[k].second == 0) rank_sum_a += avg_rank;
    const double t = static_cast<double>(j - i);
    ties += t * t * t - t;
    i = j;
  }
  const double dn1 = static_cast<double>(n1), dn2 = static_cast<double>(n2), n = dn1 + dn2;
  const double u = rank_sum_a - dn1 * (dn1 + 1) / 2;
  const double mean = dn1 * dn2 / 2;
  const double var = dn1 * dn2 / 12 * ((n + 1) - ties / (n * (n - 1)));
  if (var <= 0) return 1;  // every sample identical
  const double z = (std::abs(u - mean) - 0.5) / std::sqrt(var);  // continuity correction
  return std::erfc(std::max(z, 0.0) / std::sqrt(2.0));
}


}  // namespace archbench::stats
