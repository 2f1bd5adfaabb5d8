// Compares one device's results with its baseline: per operator same / faster / slower (with
// effect size and p-value) / image regressed / correctness regressed / new / absent. Nothing is
// dropped silently: an operator in either file gets a row.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/baseline/baseline_file.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench {

// When a timing difference counts: the new median lies beyond the baseline's envelope (the range
// of its runs' medians) by a margin of max(`min_effect`, the envelope's own relative width), the
// Mann-Whitney p-value is below `alpha`, and the change shows in cycles too when both sides
// recorded SM clocks.
struct Thresholds {
  struct Rule {
    double min_effect = 0.03;
    double alpha = 0.001;
    // Baseline runs whose medians spread wider than this (relative to their median) mark the
    // operator unstable: its time moves between processes by more than a gate could tell from a
    // regression (cuDNN's legacy conv path moved up to 2x between runs on the H200). Below it the
    // operator is gated, its margin widened to the spread: cuBLAS's large GEMMs have two modes
    // 10-18% apart between processes at identical clocks, and a 14-run H200 baseline gated that
    // way flagged none of its runs left out in turn, while catching a 20% slowdown.
    double max_spread = 0.25;
  };
  Rule fallback;
  std::map<std::string, Rule> families;

  [[nodiscard]] const Rule& rule(const std::string& family) const;
  // {"default": {"min_effect": 0.03, "alpha": 0.001, "max_spread": 0.25}, "families": {"matmul": {"min_effect": 0.03}}}
  // Throws StoredFileError for an unreadable or malformed file.
  static Thresholds load(const std::string& path);
};

// TimingModeChanged: one side timed the operator by CUDA-graph replay, the other by single
// launches; the times measure different things and are not compared. Not a regression (nothing
// got slower), but its own row and count, so a gate run with another --cuda-graph setting than
// its baseline cannot pass silently on times it never compared.
// Unconfirmed: slower in the first run but not in a re-run of it (confirm_slowdowns): a transient
// disturbance of that run, not the code. Not a regression, but its own row and count.
enum class Change { Same, Faster, Slower, ImageRegressed, CorrectnessRegressed, New, Absent, TimingModeChanged, Unstable, Unconfirmed };
// The names in compare's text and JSON, and in the fleet matrix.
inline constexpr auto kChanges = enum_names<Change>({
    {Change::Same, "same"},
    {Change::Faster, "faster"},
    {Change::Slower, "slower"},
    {Change::ImageRegressed, "image-regressed"},
    {Change::CorrectnessRegressed, "correctness-regressed"},
    {Change::New, "new"},
    {Change::Absent, "absent"},
    {Change::TimingModeChanged, "timing-mode-changed"},
    {Change::Unstable, "unstable"},
    {Change::Unconfirmed, "unconfirmed"},
});
[[nodiscard]] constexpr std::string_view change_name(Change c) { return name_of(kChanges, c); }

struct Comparison {
  std::string id;
  std::string family;
  Change change = Change::Same;
  double effect = 0;         // new median / baseline median - 1: +0.05 = 5% slower
  double p_value = 1;
  double cycles_effect = 0;  // relative change of median cycles (0 when clocks unknown)
  double base_ms = 0, now_ms = 0;
  // Beyond the margin in time but not in cycles: the SM clock explains the change (a power cap,
  // another clock setting), so it is not a code regression. Counted, so that a throttled run
  // cannot pass unnoticed.
  bool clock_explained = false;
  std::string detail;
  [[nodiscard]] bool regression() const {
    return change == Change::Slower || change == Change::ImageRegressed || change == Change::CorrectnessRegressed ||
           change == Change::Absent;
  }
};

// How much more fixed overhead every single-launch sample of `now` carries than the baseline's
// (now's timer floor - the baseline's, in ms), when both measured one; nullopt otherwise.
// Another machine of the same product can differ here by microseconds (event/launch path of
// its driver and virtualisation), which would otherwise read as a regression of every
// microsecond-scale operator.
[[nodiscard]] std::optional<double> timer_floor_shift_ms(const DeviceResults& baseline, const DeviceResults& now);

// Which variants are unstable is judged on `population` when given (the whole baseline, when the
// caller compares a filtered part of it), else on `baseline`. With `floor_correction`, the
// timer-floor shift is taken out of now's single-launch samples before they are judged (CUDA-graph
// replay amortises the floor over its batch and is compared as measured).
[[nodiscard]] std::vector<Comparison> compare_results(const DeviceResults& baseline, const DeviceResults& now,
                                                      const Thresholds& thresholds,
                                                      const DeviceResults* population = nullptr,
                                                      bool floor_correction = true);

// A slowdown stands only when a second, later run of the operator is judged slower too. On the
// H200 one of 8 runs of an unchanged build on a fresh host had a cuBLAS GEMM 4.6% slow: its samples
// wandered over 293-336 us for that operator only (61 samples, against 20 in the runs around it),
// at a steady clock; the other runs of that GPU measured it inside the envelope. A real slowdown is
// there in every run, so a re-run costs it nothing but the re-run's time.
// `rerun` is the comparison of the re-run (usually of the slower operators only) with the same
// baseline. Each Slower row of `rows` becomes Unconfirmed when the re-run judged it same or faster,
// stays Slower (detail: confirmed) when it was slower again, and stays Slower (detail: not
// confirmed either way) when the re-run lacks it or could not judge its time (another timing mode,
// an image or correctness failure, unstable). No other row changes: an image or correctness regression is
// not a timing accident. Returns how many rows became Unconfirmed.
int confirm_slowdowns(std::vector<Comparison>& rows, const std::vector<Comparison>& rerun);

}  // namespace archbench
