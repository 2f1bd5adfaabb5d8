#include "harness/history/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace archbench::history {
namespace {

double median_of(std::vector<double> v) {
  const size_t n = v.size();
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2), v.end());
  const double hi = v[n / 2];
  if (n % 2 == 1) return hi;
  return (hi + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2))) / 2;
}

// Ranks 1..n of v, ties given their average rank.
std::vector<double> ranks_of(const std::vector<double>& v) {
  std::vector<size_t> order(v.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::ranges::sort(order, {}, [&](size_t i) { return v[i]; });
  std::vector<double> r(v.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double avg = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
    for (size_t k = i; k <= j; ++k) r[order[k]] = avg;
    i = j + 1;
  }
  return r;
}

// Two-sided p of the Mann-Whitney U statistic u for samples of n1 and n2: exact (the count of rank
// arrangements, no ties assumed) while n1 * n2 <= 400, where the normal approximation is poor (8
// runs against 5 would miss a clean step); the normal approximation with `z` beyond.
double mann_whitney_p(size_t n1, size_t n2, double u, double z) {
  if (n1 * n2 > 400) return std::erfc(std::abs(z) / std::sqrt(2.0));
  // ways[i][j][k]: arrangements of i and j values with U = k (Mann & Whitney 1947's recurrence).
  const size_t top = n1 * n2;
  std::vector<std::vector<std::vector<double>>> ways(n1 + 1, std::vector<std::vector<double>>(n2 + 1));
  for (size_t i = 0; i <= n1; ++i) {
    for (size_t j = 0; j <= n2; ++j) {
      auto& w = ways[i][j];
      w.assign(i * j + 1, 0.0);
      if (i == 0 || j == 0) {
        w[0] = 1;
        continue;
      }
      for (size_t k = 0; k <= i * j; ++k) {
        if (k >= j && k - j <= (i - 1) * j) w[k] += ways[i - 1][j][k - j];
        if (k <= i * (j - 1)) w[k] += ways[i][j - 1][k];
      }
    }
  }
  const auto& dist = ways[n1][n2];
  double total = 0;
  for (double c : dist) total += c;
  // The tail on u's side of the middle, doubled.
  const double mid = static_cast<double>(top) / 2;
  const double tail_u = u <= mid ? u : static_cast<double>(top) - u;
  double tail = 0;
  for (size_t k = 0; k <= top && static_cast<double>(k) <= tail_u + 1e-9; ++k) tail += dist[k];
  return std::min(1.0, 2 * tail / total);
}

// The rank statistic finds that there is a step and roughly where, but its standardised z favours
// balanced splits: a clean step 11 runs into 100 read best at 15. The step is placed by a robust
// two-level fit instead (least absolute deviations from each side's median, as asv's step fit):
// the levels from the split, then the split that fits those levels best anywhere in the allowed
// range (prefix sums: O(n) for all splits), until the split stays put. Each run's cost is capped,
// so that an outlier beside the step (a throttled night) counts the same on either side and
// cannot move it: at 3 robust standard deviations, but at least half the step, or a run put on
// the wrong side of a clean step would cost no more than the noise it takes from the noisier
// side (measured on the H200: 14 of 77 stepped series placed a run early or late, 3 with it).
size_t place_step(const std::vector<double>& part, size_t split, size_t min_segment) {
  const size_t n = part.size();
  auto medians_at = [&](size_t k) {
    return std::pair(median_of({part.begin(), part.begin() + static_cast<std::ptrdiff_t>(k)}),
                     median_of({part.begin() + static_cast<std::ptrdiff_t>(k), part.end()}));
  };
  double cap = 0;
  {
    const auto [lm, rm] = medians_at(split);
    std::vector<double> residual(n);
    for (size_t i = 0; i < n; ++i) residual[i] = std::abs(part[i] - (i < split ? lm : rm));
    cap = std::max(3 * 1.4826 * median_of(residual), std::abs(rm - lm) / 2);
  }
  const auto capped = [&](double d) { return cap > 0 ? std::min(d, cap) : d; };
  const auto dist = [](size_t a, size_t b) { return a > b ? a - b : b - a; };
  const size_t first = split;
  for (int round = 0; round < 8; ++round) {
    const auto [lm, rm] = medians_at(split);
    // cost(k) - cost(min_segment) = sum over i in [min_segment, k) of (left cost - right cost) of run i.
    double running = 0, best_cost = 0;
    size_t best = min_segment;
    for (size_t k = min_segment; k <= n - min_segment; ++k) {
      if (k > min_segment) running += capped(std::abs(part[k - 1] - lm)) - capped(std::abs(part[k - 1] - rm));
      const double tol = 1e-12 * (1 + std::abs(running));
      // A strictly better fit wins; among equal fits, the one nearer the rank statistic's split.
      if (k == min_segment || running < best_cost - tol || (running <= best_cost + tol && dist(k, first) < dist(best, first))) {
        best_cost = running;
        best = k;
      }
    }
    if (best == split) break;
    split = best;
  }
  return split;
}

void segment(const std::vector<double>& s, size_t begin, size_t end, const ChangePointRules& rules,
             std::vector<ChangePoint>& out) {
  const size_t n = end - begin;
  if (n < 2 * rules.min_segment) return;
  const std::vector<double> part(s.begin() + static_cast<std::ptrdiff_t>(begin), s.begin() + static_cast<std::ptrdiff_t>(end));
  const std::vector<double> r = ranks_of(part);
  // The split with the largest |z| of the U statistic of the prefix against the rest; the rank sum
  // of a prefix grows by one rank per step, so every split costs O(1).
  double best_z = 0, best_u = 0, rank_sum = 0;
  size_t best = 0;
  const double nn = static_cast<double>(n);
  for (size_t k = 1; k < n; ++k) {
    rank_sum += r[k - 1];
    if (k < rules.min_segment || n - k < rules.min_segment) continue;
    const double n1 = static_cast<double>(k), n2 = nn - n1;
    const double u = rank_sum - n1 * (n1 + 1) / 2;
    const double z = (u - n1 * n2 / 2) / std::sqrt(n1 * n2 * (nn + 1) / 12);
    if (std::abs(z) > std::abs(best_z)) {
      best_z = z;
      best_u = u;
      best = k;
    }
  }
  if (best == 0) return;
  const double p_split = mann_whitney_p(best, n - best, best_u, best_z);
  best = place_step(part, best, rules.min_segment);
  const size_t splits = n - 2 * rules.min_segment + 1;
  const double p = std::min(1.0, p_split * static_cast<double>(splits));
  const double before = median_of({part.begin(), part.begin() + static_cast<std::ptrdiff_t>(best)});
  const double after = median_of({part.begin() + static_cast<std::ptrdiff_t>(best), part.end()});
  if (p > rules.alpha || before <= 0 || std::abs(after / before - 1) < rules.min_step) return;
  segment(s, begin, begin + best, rules, out);
  out.push_back({begin + best, before, after, p});
  segment(s, begin + best, end, rules, out);
}

}  // namespace

std::vector<ChangePoint> find_change_points(const std::vector<double>& series, const ChangePointRules& rules) {
  std::vector<ChangePoint> out;
  segment(series, 0, series.size(), rules, out);
  return out;
}

}  // namespace archbench::history
