// Change points in one series of per-run medians (one operator on one runner, in run order), by
// binary segmentation with a rank test: the split that best separates the series into a before
// and an after is tested with the two-sample Mann-Whitney U test (exact for small samples, the
// normal approximation with ties averaged beyond), Bonferroni-corrected for the number of splits
// tried; the step is then placed by a robust two-level fit (each side's median, least absolute
// deviations, capped per run); an accepted split also needs a step of at least `min_step` between
// the two medians and `min_segment` runs on each side; then each side is searched again. Binary
// segmentation: Scott & Knott (1974), Vostrikova (1981); the rank test makes it robust to the
// outliers a GPU timing series has (a throttled night). docs/history.md, "Change points", says why
// these parameters.
#pragma once

#include <cstddef>
#include <vector>

namespace archbench::history {

struct ChangePointRules {
  size_t min_segment = 4;  // runs on each side of a step, at least
  double alpha = 0.01;     // family-wise false-alarm rate per series (Bonferroni over the splits tried)
  double min_step = 0.03;  // |median after / median before - 1|, at least
};

struct ChangePoint {
  size_t at = 0;          // index of the first run after the step
  double before = 0;      // median of the segment before
  double after = 0;       // median of the segment after
  double p_value = 1;     // Bonferroni-corrected
  [[nodiscard]] double step() const { return after / before - 1; }  // +0.072 = 7.2% slower
};

// In index order. Series shorter than 2 * min_segment have none.
[[nodiscard]] std::vector<ChangePoint> find_change_points(const std::vector<double>& series,
                                                          const ChangePointRules& rules = {});

}  // namespace archbench::history
