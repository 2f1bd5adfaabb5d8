// The timer's floor as results, baselines and compare carry it: stored with the ceilings,
// pooled as the median of a baseline's runs, validated when read back, and taken out of the
// other machine's single-launch samples before they are judged. The shapes of the synthetic
// data follow what two H200 hosts measured: every operator 1.5-2.0 us slower on one of them, at
// any kernel length (3.7 us to 13 ms), with the same clocks.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/baseline/baseline_file.hpp"
#include "harness/baseline/compare.hpp"
#include "harness/result/result_json.hpp"
#include "harness/run/timer.hpp"
#include "suites/unit/synthetic_results.hpp"

namespace archbench {
namespace {

namespace fs = std::filesystem;

constexpr double kHostShiftMs = 0.0017;  // the other host's extra fixed cost per sample

TimingResult timing(double center_ms, unsigned seed, LaunchMode mode = LaunchMode::Async, int batch = 0) {
  return testing_support::synthetic_timing(center_ms, seed, mode, batch, 60);
}

OperatorResult op(const std::string& id, const TimingResult& t) { return testing_support::synthetic_operator(id, t); }

DeviceResults device(std::vector<OperatorResult> ops, std::optional<double> floor_ms) {
  DeviceResults d = testing_support::synthetic_h200(std::move(ops));
  d.timer_floor_ms = floor_ms;
  return d;
}

std::string temp_file(const std::string& name) {
  return (fs::temp_directory_path() / ("archbench_floor_" + std::to_string(::getpid()) + "_" + name)).string();
}

TEST(TimerFloorJson, CeilingsCarryTheFloorAndOldOnesReadAsUnmeasured) {
  Ceilings c;
  c.dram_gbps = 4227;
  c.timer_floor_ms = 0.0021;
  EXPECT_DOUBLE_EQ(nlohmann::json(c).get<Ceilings>().timer_floor_ms, 0.0021);
  auto old = nlohmann::json(c);
  old.erase("timer_floor_ms");
  EXPECT_EQ(old.get<Ceilings>().timer_floor_ms, 0.0);
}

TEST(TimerFloorJson, RunResultsExposeTheirDevicesFloor) {
  auto j = nlohmann::json::parse(std::ifstream(fs::path(ARCHBENCH_TEST_FIXTURES) / "results_h200.json"));
  Ceilings c;
  c.timer_floor_ms = 0.0038;
  j["devices"][0]["ceilings"] = c;
  const auto path = temp_file("results.json");
  std::ofstream(path) << j.dump();
  const auto runs = load_run_results(path);
  ASSERT_TRUE(runs.front().timer_floor_ms.has_value());
  EXPECT_DOUBLE_EQ(*runs.front().timer_floor_ms, 0.0038);
  j["devices"][0]["ceilings"] = nullptr;  // a run without timing, or written before the floor
  std::ofstream(path) << j.dump();
  EXPECT_FALSE(load_run_results(path).front().timer_floor_ms.has_value());
  fs::remove(path);
}

TEST(TimerFloorBaseline, PoolsTheMedianOfItsRunsAndRoundTrips) {
  const auto pooled = merge_runs({device({op("a", timing(0.01, 1))}, 0.0020), device({op("a", timing(0.01, 2))}, 0.0023),
                                  device({op("a", timing(0.01, 3))}, 0.0021)});
  ASSERT_TRUE(pooled.timer_floor_ms.has_value());
  EXPECT_DOUBLE_EQ(*pooled.timer_floor_ms, 0.0021);
  EXPECT_EQ(pooled.run_timer_floors_ms.size(), 3u);

  const auto path = temp_file("baseline.json");
  save_baseline(path, pooled);
  const auto back = load_baseline(path);
  ASSERT_TRUE(back.timer_floor_ms.has_value());
  EXPECT_DOUBLE_EQ(*back.timer_floor_ms, 0.0021);
  EXPECT_EQ(back.run_timer_floors_ms, pooled.run_timer_floors_ms);
  fs::remove(path);

  // One run without a floor: the pool has none rather than a median of some of its processes.
  const auto partial = merge_runs({device({op("a", timing(0.01, 1))}, 0.0020), device({op("a", timing(0.01, 2))}, std::nullopt)});
  EXPECT_FALSE(partial.timer_floor_ms.has_value());
  EXPECT_TRUE(partial.run_timer_floors_ms.empty());
}

TEST(TimerFloorBaseline, RunsFromTwoHostsArePooledOnTheirMedianFloor) {
  // The same 8.5 us kernel on a host with a 2.1 us floor and on one with 3.8 us: pooled as
  // measured, the runs would disagree by 20% and make the operator "unstable".
  const auto pooled = merge_runs({device({op("a", timing(0.0085, 1))}, 0.0021),
                                  device({op("a", timing(0.0085 + kHostShiftMs, 2))}, 0.0021 + kHostShiftMs),
                                  device({op("a", timing(0.0085, 3))}, 0.0021)});
  EXPECT_DOUBLE_EQ(*pooled.timer_floor_ms, 0.0021);
  const auto& medians = pooled.operators[0].timing->run_medians_ms;
  ASSERT_EQ(medians.size(), 3u);
  EXPECT_LT(*std::ranges::max_element(medians) / *std::ranges::min_element(medians) - 1, 0.01);
  EXPECT_NEAR(pooled.operators[0].timing->median_ms, 0.0085, 0.0001);
}

TEST(TimerFloorBaseline, ADamagedFloorIsAClearError) {
  const auto path = temp_file("damaged.json");
  save_baseline(path, device({op("a", timing(0.01, 1))}, 0.0021));
  auto j = nlohmann::json::parse(std::ifstream(path));
  for (const nlohmann::json& bad : {nlohmann::json(-1.0), nlohmann::json(5000.0), nlohmann::json("fast")}) {
    j["timer_floor"]["median_ms"] = bad;
    std::ofstream(path) << j.dump();
    try {
      (void)load_baseline(path);
      ADD_FAILURE() << "accepted timer_floor.median_ms " << bad.dump();
    } catch (const StoredFileError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
  j.erase("timer_floor");  // baselines recorded before the floor still load, without one
  std::ofstream(path) << j.dump();
  EXPECT_FALSE(load_baseline(path).timer_floor_ms.has_value());
  fs::remove(path);
}

// Another host of the same product: every sample carries kHostShiftMs more.
DeviceResults other_host(const std::vector<std::pair<std::string, double>>& ops, double extra_ms_on = 0,
                         const std::string& regressed = "") {
  std::vector<OperatorResult> out;
  unsigned seed = 100;
  for (const auto& [id, ms] : ops) {
    const double own = id == regressed ? ms * (1 + extra_ms_on) : ms;
    out.push_back(op(id, timing(own + kHostShiftMs, seed++)));
  }
  return device(out, 0.0021 + kHostShiftMs);
}

TEST(TimerFloorCompare, AnotherHostsFixedOverheadIsNotARegression) {
  const std::vector<std::pair<std::string, double>> ops = {
      {"timestep_embedding", 0.0037}, {"residual_add", 0.0085}, {"gelu", 0.064}, {"flash", 1.06}};
  std::vector<OperatorResult> base_ops;
  unsigned seed = 1;
  for (const auto& [id, ms] : ops) base_ops.push_back(op(id, timing(ms, seed++)));
  const auto base = device(base_ops, 0.0021);
  const auto now = other_host(ops);

  ASSERT_TRUE(timer_floor_shift_ms(base, now).has_value());
  EXPECT_NEAR(*timer_floor_shift_ms(base, now), kHostShiftMs, 1e-12);
  for (const auto& r : compare_results(base, now, {})) EXPECT_EQ(r.change, Change::Same) << r.id << ": " << r.detail;

  // Compared as measured, the microsecond-scale operators read as regressions (what the H200
  // hosts showed before the floor was measured); the 1 ms one does not.
  std::map<std::string, Change> raw;
  for (const auto& r : compare_results(base, now, {}, nullptr, /*floor_correction=*/false)) raw[r.id] = r.change;
  EXPECT_EQ(raw["timestep_embedding"], Change::Slower);
  EXPECT_EQ(raw["residual_add"], Change::Slower);
  EXPECT_EQ(raw["flash"], Change::Same);

  // A real 10% regression of a 8.5 us kernel on that host is still caught after the correction.
  std::map<std::string, Change> got;
  for (const auto& r : compare_results(base, other_host(ops, 0.10, "residual_add"), {})) got[r.id] = r.change;
  EXPECT_EQ(got["residual_add"], Change::Slower);
  EXPECT_EQ(got["timestep_embedding"], Change::Same);
}

TEST(TimerFloorCompare, NoFloorOnEitherSideMeansNoCorrection) {
  const auto base = device({op("a", timing(0.0085, 1))}, std::nullopt);
  const auto now = device({op("a", timing(0.0085 + kHostShiftMs, 2))}, 0.0038);
  EXPECT_FALSE(timer_floor_shift_ms(base, now).has_value());
  EXPECT_EQ(compare_results(base, now, {})[0].change, Change::Slower);
}

TEST(TimerFloorCompare, GraphReplayIsComparedAsMeasured) {
  // A graph sample amortises the floor over its batch: shifting it by a whole floor would turn
  // an unchanged 4 us launch into a "faster" one.
  const auto base = device({op("g", timing(0.004, 1, LaunchMode::Graph, 50))}, 0.0021);
  const auto now = device({op("g", timing(0.004, 2, LaunchMode::Graph, 50))}, 0.0021 + kHostShiftMs);
  const auto row = compare_results(base, now, {})[0];
  EXPECT_EQ(row.change, Change::Same) << row.detail;
  EXPECT_NEAR(row.now_ms, 0.004, 0.0001);
}

}  // namespace
}  // namespace archbench
