#include "harness/baseline/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

#include "harness/baseline/statistics.hpp"
#include "harness/util/quantile.hpp"
#include "harness/result/timing_summary.hpp"

namespace archbench {
namespace {

bool graph_replayed(const TimingResult& t) { return t.mode == LaunchMode::Graph; }

std::string timing_method(const TimingResult& t) {
  return graph_replayed(t) ? fmt::format("CUDA-graph replay (batch {})", t.graph_batch)
                           : fmt::format("{} launches", launch_mode_name(t.mode));
}

bool correct(const OperatorResult& r) { return r.correctness && r.correctness->correct(); }

// (max - min) / median of the baseline runs' medians: how far the operator moved between processes.
double run_spread(const TimingResult& t) {
  const std::vector<double> m = t.run_medians_ms.empty() ? std::vector<double>{t.median_ms} : t.run_medians_ms;
  const double mid = median(m);
  return mid > 0 ? (*std::ranges::max_element(m) - *std::ranges::min_element(m)) / mid : 0;
}

// Instability is a property of a code path more than of one shape: when at least half of a
// variant's operators (family/name, two or more) spread beyond max_spread in the baseline, the
// others may simply not have shown their second mode in these few runs (cuDNN's legacy conv path
// on the H200). Variant -> "k of n".
std::map<std::string, std::string> unstable_variants(const DeviceResults& baseline, const Thresholds& th) {
  std::map<std::string, std::pair<size_t, size_t>> counts;  // unstable, timed
  for (const auto& b : baseline.operators) {
    if (!b.timing || b.timing->samples_ms.empty()) continue;
    auto& [unstable, timed] = counts[b.variant()];
    ++timed;
    if (run_spread(*b.timing) > th.rule(b.family).max_spread) ++unstable;
  }
  std::map<std::string, std::string> out;
  for (const auto& [v, n] : counts) {
    if (n.second >= 2 && 2 * n.first >= n.second) out[v] = fmt::format("{} of {}", n.first, n.second);
  }
  return out;
}

Comparison compare_one(const OperatorResult& base, const OperatorResult& now, const Thresholds& th,
                       const std::map<std::string, std::string>& unstable, double floor_shift_ms) {
  Comparison c;
  c.id = now.id;
  c.family = now.family;
  if (image_regressed(base.image.status, now.image.status)) {
    c.change = Change::ImageRegressed;
    c.detail = "was " + base.image.label + ", now " + now.image.label + (now.image.cause.empty() ? "" : ": " + now.image.cause);
    return c;
  }
  if (correct(base) && !correct(now)) {
    c.change = Change::CorrectnessRegressed;
    c.detail = now.correctness ? fmt::format("rel. error {:.2e} (tolerance {:.0e}), was {:.2e}", now.correctness->rel_error,
                                             now.correctness->tolerance, base.correctness->rel_error)
                               : "not checked: " + (now.error.empty() ? now.image.label : now.error);
    return c;
  }
  if (!base.timing || !now.timing || base.timing->samples_ms.empty() || now.timing->samples_ms.empty()) {
    c.detail = base.timing ? "not timed in these results" : "not timed in the baseline";
    return c;
  }
  const auto& b = *base.timing;
  // Now's samples as the baseline's machine would have measured them (a copy only when they move).
  const bool shift = floor_shift_ms != 0 && !graph_replayed(*now.timing);
  const std::optional<TimingResult> moved =
      shift ? std::optional<TimingResult>(with_floor_moved(*now.timing, -floor_shift_ms)) : std::nullopt;
  const TimingResult& n = moved ? *moved : *now.timing;
  if (graph_replayed(b) != graph_replayed(n)) {
    c.change = Change::TimingModeChanged;
    c.base_ms = b.median_ms;
    c.now_ms = n.median_ms;
    c.detail = fmt::format("times not compared: timed by {} in the baseline ({:.4f} ms), by {} now ({:.4f} ms); "
                           "run with the baseline's --cuda-graph setting, or update the baseline",
                           timing_method(b), b.median_ms, timing_method(n), n.median_ms);
    return c;
  }
  // The baseline's envelope: the lowest and highest median of the runs it pools. A new median
  // counts only beyond the envelope by min_effect, so run-to-run noise is not a regression.
  const std::vector<double> medians = b.run_medians_ms.empty() ? std::vector<double>{b.median_ms} : b.run_medians_ms;
  const double lo = *std::ranges::min_element(medians), hi = *std::ranges::max_element(medians);
  c.base_ms = median(medians);
  c.now_ms = n.median_ms;  // floor-corrected when shifted; the detail names the measured value
  c.effect = c.base_ms > 0 ? n.median_ms / c.base_ms - 1 : 0;
  c.p_value = stats::mann_whitney_p(b.samples_ms, n.samples_ms);
  const bool have_cycles = b.median_cycles > 0 && n.median_cycles > 0;
  if (have_cycles) c.cycles_effect = n.median_cycles / b.median_cycles - 1;
  const auto& rule = th.rule(now.family);
  // The margin grows with the run-to-run spread the baseline saw: a noisy operator (cuBLAS at
  // large shapes moved ~10% between runs on the H200 with identical clocks) must move further.
  const double spread = c.base_ms > 0 ? (hi - lo) / c.base_ms : 0;
  if (spread > rule.max_spread) {
    c.change = Change::Unstable;
    c.detail = fmt::format("{:.4f} -> {:.4f} ms ({:+.1f}%): not gated, the baseline's {} runs spread {:.0f}% "
                           "(> max_spread {:.0f}%) between processes",
                           c.base_ms, n.median_ms, 100 * c.effect, medians.size(), 100 * spread, 100 * rule.max_spread);
    return c;
  }
  if (auto v = unstable.find(base.variant()); v != unstable.end()) {
    c.change = Change::Unstable;
    c.detail = fmt::format("{:.4f} -> {:.4f} ms ({:+.1f}%): not gated, {} operators of {} spread beyond max_spread "
                           "{:.0f}% between the baseline's runs (this one {:.1f}%)",
                           c.base_ms, n.median_ms, 100 * c.effect, v->second, v->first, 100 * rule.max_spread,
                           100 * spread);
    return c;
  }
  const double margin = std::max(rule.min_effect, spread);
  const bool slower = n.median_ms > hi * (1 + margin);
  const bool faster = n.median_ms < lo * (1 - margin);
  const bool significant = (slower || faster) && c.p_value < rule.alpha;
  // A clock change alone (same cycles) is not a code regression: confirm in cycle space.
  const bool cycles_agree = !have_cycles || std::abs(c.cycles_effect) >= rule.min_effect * 0.5;
  if (significant && cycles_agree) c.change = slower ? Change::Slower : Change::Faster;
  c.detail = fmt::format("{:.4f} -> {:.4f} ms{} ({:+.1f}%, baseline runs {:.4f}-{:.4f}, margin {:.1f}%, p={:.1e}{})",
                         c.base_ms, n.median_ms,
                         shift ? fmt::format(" (measured {:.4f}, less the floor shift)", now.timing->median_ms) : "",
                         100 * c.effect, lo, hi, 100 * margin, c.p_value,
                         have_cycles ? fmt::format(", cycles {:+.1f}%", 100 * c.cycles_effect) : "");
  if (significant && !cycles_agree) {
    c.clock_explained = true;
    c.detail += " - within clock drift";
  }
  if (graph_replayed(b) && b.graph_batch != n.graph_batch) {
    c.detail += fmt::format(" (CUDA-graph batch {} -> {})", b.graph_batch, n.graph_batch);
  }
  return c;
}

}  // namespace

const Thresholds::Rule& Thresholds::rule(const std::string& family) const {
  auto it = families.find(family);
  return it == families.end() ? fallback : it->second;
}

Thresholds Thresholds::load(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw StoredFileError("cannot read thresholds file " + path);
  Thresholds t;
  try {
    const auto j = nlohmann::json::parse(f);
    auto read_rule = [](const nlohmann::json& r, Rule base) {
      base.min_effect = r.value("min_effect", base.min_effect);
      base.alpha = r.value("alpha", base.alpha);
      base.max_spread = r.value("max_spread", base.max_spread);
      if (!(base.min_effect >= 0 && base.min_effect < 10 && base.alpha > 0 && base.alpha <= 1 && base.max_spread > 0)) {
        throw std::invalid_argument("min_effect must be in [0, 10), alpha in (0, 1] and max_spread > 0");
      }
      return base;
    };
    if (j.contains("default")) t.fallback = read_rule(j.at("default"), t.fallback);
    if (j.contains("families")) {
      for (const auto& [family, r] : j.at("families").items()) t.families[family] = read_rule(r, t.fallback);
    }
  } catch (const std::exception& e) {
    throw StoredFileError("thresholds file " + path + ": " + e.what());
  }
  return t;
}

std::optional<double> timer_floor_shift_ms(const DeviceResults& baseline, const DeviceResults& now) {
  if (!baseline.timer_floor_ms || !now.timer_floor_ms) return std::nullopt;
  return *now.timer_floor_ms - *baseline.timer_floor_ms;
}

std::vector<Comparison> compare_results(const DeviceResults& baseline, const DeviceResults& now, const Thresholds& th,
                                        const DeviceResults* population, bool floor_correction) {
  std::vector<Comparison> out;
  const auto unstable = unstable_variants(population != nullptr ? *population : baseline, th);
  const double floor_shift = floor_correction ? timer_floor_shift_ms(baseline, now).value_or(0.0) : 0.0;
  for (const auto& b : baseline.operators) {
    auto it = std::ranges::find(now.operators, b.id, &OperatorResult::id);
    if (it == now.operators.end()) {
      Comparison c;
      c.id = b.id;
      c.family = b.family;
      c.change = Change::Absent;
      c.detail = "in the baseline, absent from these results (filtered out, or the operator was removed)";
      out.push_back(c);
    } else {
      out.push_back(compare_one(b, *it, th, unstable, floor_shift));
    }
  }
  for (const auto& n : now.operators) {
    if (std::ranges::find(baseline.operators, n.id, &OperatorResult::id) != baseline.operators.end()) continue;
    Comparison c;
    c.id = n.id;
    c.family = n.family;
    c.change = Change::New;
    c.detail = "not in the baseline (" + n.image.label + ")";
    out.push_back(c);
  }
  return out;
}

int confirm_slowdowns(std::vector<Comparison>& rows, const std::vector<Comparison>& rerun) {
  int unconfirmed = 0;
  for (auto& row : rows) {
    if (row.change != Change::Slower) continue;
    auto again = std::ranges::find(rerun, row.id, &Comparison::id);
    // Only a re-run that timed the operator comparably and found it same or faster clears it; one
    // that lacks it, or timed it another way (another --cuda-graph mode), or found it broken, did not
    // measure the slowdown again.
    const bool cleared = again != rerun.end() && (again->change == Change::Same || again->change == Change::Faster);
    if (again == rerun.end() || again->change == Change::Absent) {
      row.detail += "; not in the re-run, so not confirmed either way";
    } else if (again->change == Change::Slower) {
      row.detail += fmt::format("; confirmed by the re-run ({:+.1f}%)", 100 * again->effect);
    } else if (!cleared) {
      row.detail += fmt::format("; the re-run judged it {}, so not confirmed either way", change_name(again->change));
    } else {
      row.change = Change::Unconfirmed;
      row.detail = fmt::format("slower in the first run ({}), {} in the re-run ({:+.1f}%): a disturbance of that run",
                               row.detail, change_name(again->change), 100 * again->effect);
      ++unconfirmed;
    }
  }
  return unconfirmed;
}

}  // namespace archbench
