// harness/history without a GPU: change points on series with known steps and outliers, and the
// SQLite store (idempotent adds, merges, refused files, concurrent writers, environment changes).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "harness/history/change_points.hpp"
#include "harness/history/history_baselines.hpp"
#include "harness/history/history_check.hpp"
#include "harness/history/history_store.hpp"
#include "suites/unit/synthetic_results.hpp"

namespace archbench::history {
namespace {

std::vector<double> noisy(size_t n, double level, double sigma, std::mt19937& rng) {
  std::normal_distribution<double> z(0, sigma);
  std::vector<double> v(n);
  for (auto& x : v) x = level * std::exp(z(rng));
  return v;
}

TEST(ChangePoints, AStepIsFoundAtItsRunAndNoiseIsNot) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    auto s = noisy(40, 1.0, 0.005, rng);
    for (size_t i = 25; i < s.size(); ++i) s[i] *= 1.05;
    const auto cps = find_change_points(s);
    ASSERT_EQ(cps.size(), 1u) << trial;
    EXPECT_EQ(cps[0].at, 25u);
    EXPECT_NEAR(cps[0].step(), 0.05, 0.01);
    EXPECT_LT(cps[0].p_value, 0.001);
  }
  size_t false_alarms = 0;
  for (int trial = 0; trial < 200; ++trial) false_alarms += find_change_points(noisy(60, 2.0, 0.015, rng)).size();
  EXPECT_EQ(false_alarms, 0u);
}

TEST(ChangePoints, OutliersDoNotMakeStepsAndSmallStepsAreIgnored) {
  std::mt19937 rng(11);
  auto s = noisy(50, 1.0, 0.005, rng);
  s[10] *= 1.3;  // two throttled nights
  s[30] *= 1.25;
  EXPECT_TRUE(find_change_points(s).empty());
  auto small = noisy(50, 1.0, 0.001, rng);
  for (size_t i = 25; i < small.size(); ++i) small[i] *= 1.02;  // real, but under min_step
  EXPECT_TRUE(find_change_points(small).empty());
  ChangePointRules fine;
  fine.min_step = 0.01;
  EXPECT_EQ(find_change_points(small, fine).size(), 1u);
  EXPECT_TRUE(find_change_points({1, 2, 3}).empty());  // too short to split
}

TEST(ChangePoints, AStepBetweenAQuietAndANoisierSideIsPlacedAtItsRun) {
  // Medians (us) of two H200 series, 7 runs of one build and 6 of a build with attention 5% slower: the
  // capped fit put the first at run 9 and the second at run 7, until the cap was at least half the step.
  const std::vector<double> cudnn{424.58, 424.82, 424.19, 424.59, 424.69, 424.64, 424.93,
                                  445.50, 445.87, 447.84, 447.34, 447.30, 445.46};
  const std::vector<double> math{1081.31, 1081.15, 1081.52, 1081.17, 1081.66, 1085.78, 1085.09,
                                 1134.94, 1134.35, 1135.76, 1139.90, 1135.33, 1134.48};
  for (const auto* s : {&cudnn, &math}) {
    const auto cps = find_change_points(*s);
    ASSERT_EQ(cps.size(), 1u);
    EXPECT_EQ(cps[0].at, 7u);
    EXPECT_GT(cps[0].step(), 0.04);
  }
}

TEST(ChangePoints, AStepNearTheStartOfALongSeriesIsPlacedAtItsRun) {
  // The rank statistic's z favours balanced splits: a clean +5% step 8-12 runs into 100 often read
  // best a few runs later, beyond the reach of a fit that looked only 3 runs around it (183 of these
  // 200 placed at their run; a run 2.5 sigma off on the wrong side of the step misleads any fit).
  std::mt19937 rng(5);
  size_t placed = 0;
  for (size_t at = 8; at <= 12; ++at) {
    for (int trial = 0; trial < 40; ++trial) {
      auto s = noisy(100, 1.0, 0.01, rng);
      for (size_t i = at; i < s.size(); ++i) s[i] *= 1.05;
      const auto cps = find_change_points(s);
      placed += cps.size() == 1 && cps[0].at == at;
    }
  }
  EXPECT_GE(placed, 190u);  // 95%
}

TEST(ChangePoints, TwoStepsAreBothFound) {
  std::mt19937 rng(3);
  auto s = noisy(60, 1.0, 0.004, rng);
  for (size_t i = 20; i < s.size(); ++i) s[i] *= 1.10;
  for (size_t i = 40; i < s.size(); ++i) s[i] *= 0.85;
  const auto cps = find_change_points(s);
  ASSERT_EQ(cps.size(), 2u);
  EXPECT_EQ(cps[0].at, 20u);
  EXPECT_EQ(cps[1].at, 40u);
  EXPECT_LT(cps[1].step(), 0);
}

TEST(EnvironmentChange, NamesWhatDiffers) {
  const nlohmann::json a{{"revision", "aaa"}, {"cuDNN", "9.14.0"}, {"driver", "13.0"}};
  const nlohmann::json b{{"revision", "bbb"}, {"cuDNN", "9.19.0"}, {"driver", "13.0"}};
  EXPECT_EQ(environment_change(a, b), "cuDNN 9.14.0 -> 9.19.0; revision aaa -> bbb");
  EXPECT_EQ(environment_change(a, a), "no recorded change");
}

// A run of one device with the given operator medians.
StoredRun run_of(const std::string& uuid, const std::string& when, const std::string& revision,
                 const std::vector<std::pair<std::string, double>>& ops) {
  StoredRun r;
  r.build.git_revision = revision;
  r.build.arch_list = "9.0";
  r.environment = nlohmann::json{{"host", "h1"}, {"started_at", when}, {"driver_cuda_version", "13.0"},
                                  {"runtime_cuda_version", "13.0"}}.get<Environment>();
  StoredDevice d;
  d.results.build = r.build;  // as load_run_results gives each device the run's build
  d.results.key = "nvidia-h200-cc90-140g";
  d.results.device = nlohmann::json{{"uuid", uuid}, {"name", "NVIDIA H200"}, {"index", 0}, {"cc", "9.0"},
                                    {"memory_bytes", 150'117'810'176ULL}}.get<DeviceInfo>();
  for (const auto& [id, ms] : ops) {
    TimingResult t;
    t.median_ms = ms;
    d.results.operators.push_back(testing_support::synthetic_operator(id, t));
  }
  r.devices.push_back(d);
  return r;
}

// One directory per test process, removed when the process ends (ctest runs each test alone).
struct ScratchDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("archbench_history_test_" + std::to_string(::getpid()));
  ScratchDir() { std::filesystem::create_directories(path); }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

std::string scratch(const char* name) {
  static const ScratchDir dir;
  const auto p = dir.path / name;
  for (const char* ext : {"", "-wal", "-shm"}) std::filesystem::remove(p.string() + ext);
  return p.string();
}

TEST(HistoryStore, AddsOnceMergesAndFindsTheStepWithItsRevision) {
  const std::string path = scratch("a.sqlite");
  auto store = HistoryStore::open(path, true);
  std::mt19937 rng(5);
  std::normal_distribution<double> z(0, 0.004);
  for (int night = 0; night < 24; ++night) {
    const double slower = night >= 16 ? 1.08 : 1.0;
    const auto run = run_of("GPU-1", "2026-01-" + std::to_string(10 + night) + "T03:00:00Z",
                            night >= 16 ? "bbb" : "aaa",
                            {{"norm/layernorm/f16/M", 0.020 * slower * std::exp(z(rng))}, {"matmul/x/f16/M", 0.2 * std::exp(z(rng))}});
    EXPECT_EQ(store.add(run), 1u);
    EXPECT_EQ(store.add(run), 0u);  // the same run again: recorded already
  }
  ASSERT_EQ(store.runs().size(), 24u);
  const auto steps = check_history(store, {});
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, StepKind::Slower);
  EXPECT_EQ(steps[0].op, "norm/layernorm/f16/M");
  EXPECT_EQ(steps[0].run_index, 16u);
  EXPECT_EQ(steps[0].environment_change, "revision aaa -> bbb");
  // Merging into another store copies every run once.
  const std::string other = scratch("b.sqlite");
  auto b = HistoryStore::open(other, true);
  EXPECT_EQ(b.merge_from(store), 24u);
  EXPECT_EQ(b.merge_from(store), 0u);
  EXPECT_EQ(b.results("GPU-1").size(), 48u);
}

TEST(HistoryCheck, AFamilyThatSteppedAtOneRunIsOneLine) {
  auto step = [](const std::string& op, size_t run, double ratio, StepKind kind = StepKind::Slower) {
    Step s;
    s.kind = kind;
    s.runner = "GPU-1";
    s.op = op;
    s.run_index = run;
    s.change.before = 1;
    s.change.after = ratio;
    s.environment_change = "revision aaa -> bbb";
    return s;
  };
  const std::vector<Step> steps{step("attention/a/f16/X", 7, 1.05), step("attention/b/f16/X", 7, 1.06),
                                step("attention/c/f16/X", 7, 1.04), step("attention/d/f16/X", 8, 1.05),
                                step("norm/a/f16/X", 7, 1.05), step("conv/a/f16/X", 7, 0.9, StepKind::Faster),
                                step("conv/b/f16/X", 7, 0.92, StepKind::Faster)};
  const auto families = group_by_family(steps);
  ASSERT_EQ(families.size(), 2u);  // one operator alone (norm, attention at run 8) is no group
  EXPECT_EQ(families[0].family, "attention");
  EXPECT_EQ(families[0].operators, 3u);
  EXPECT_EQ(families[0].run_index, 7u);
  EXPECT_NEAR(families[0].median_step, 0.05, 1e-12);
  EXPECT_EQ(families[0].environment_change, "revision aaa -> bbb");
  EXPECT_EQ(families[1].family, "conv");
  EXPECT_EQ(families[1].kind, StepKind::Faster);
  EXPECT_NEAR(families[1].median_step, -0.08, 1e-12);  // the upper median of two
}

TEST(HistoryStore, ANewFailureIsAStepAndARecoveryToo) {
  auto store = HistoryStore::open(scratch("c.sqlite"), true);
  auto ok = run_of("GPU-2", "2026-02-01T03:00:00Z", "aaa", {{"conv/x/f16/M", 0.1}});
  auto bad = run_of("GPU-2", "2026-02-02T03:00:00Z", "bbb", {{"conv/x/f16/M", 0.1}});
  bad.devices[0].results.operators[0].image.status = ImageOutcome::Missing;
  store.add(ok);
  store.add(bad);
  const auto steps = check_history(store, {});
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, StepKind::NowFails);
  EXPECT_TRUE(steps[0].regression());
  EXPECT_NE(steps[0].what.find("-> missing"), std::string::npos) << steps[0].what;
}

TEST(HistoryStore, KeepsTheFullResultsOfARunnersNewestRuns) {
  auto store = HistoryStore::open(scratch("kept.sqlite"), true);
  const size_t nights = kKeptResultsPerRunner + 5;
  for (size_t night = 0; night < nights; ++night) {
    auto run = run_of("GPU-K", fmt::format("2026-03-{:02}T03:00:00Z", night + 1), "aaa", {{"norm/x/f16/M", 0.02}});
    run.devices[0].results.operators[0].timing->samples_ms = {0.019, 0.02, 0.021 + 1e-4 * static_cast<double>(night)};
    store.add(run);
  }
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), nights);
  for (size_t i = 0; i < nights; ++i) {
    EXPECT_EQ(store.device_results(runs[i].id).has_value(), i >= 5) << "run " << i;  // the oldest 5 keep medians only
  }
  const auto last = store.device_results(runs.back().id);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->key, "nvidia-h200-cc90-140g");
  ASSERT_EQ(last->operators.size(), 1u);
  EXPECT_DOUBLE_EQ(last->operators[0].timing->samples_ms.at(2), 0.021 + 1e-4 * static_cast<double>(nights - 1));
  // A merge copies the kept results with the runs.
  auto other = HistoryStore::open(scratch("kept_merged.sqlite"), true);
  other.merge_from(store);
  const auto merged = other.runs();
  EXPECT_TRUE(other.device_results(merged.back().id).has_value());
  EXPECT_FALSE(other.device_results(merged.front().id).has_value());
}

TEST(HistoryStore, ASchema1StoreIsUpgradedKeepingItsRuns) {
  const std::string p = scratch("v1.sqlite");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(p.c_str(), &db), SQLITE_OK);
  const char* v1 =
      "CREATE TABLE runs(id INTEGER PRIMARY KEY, digest TEXT NOT NULL UNIQUE, runner TEXT NOT NULL, host TEXT NOT NULL,"
      " device_key TEXT NOT NULL, device_name TEXT NOT NULL, started_at TEXT NOT NULL, environment TEXT NOT NULL);"
      "CREATE TABLE results(run INTEGER NOT NULL REFERENCES runs(id), operator TEXT NOT NULL, image TEXT NOT NULL,"
      " failed INTEGER NOT NULL, median_ms REAL, PRIMARY KEY(run, operator));"
      "INSERT INTO runs VALUES(1, 'd1', 'GPU-V', 'h1', 'nvidia-h200-cc90-140g', 'NVIDIA H200', '2026-01-01T03:00:00Z', '{}');"
      "INSERT INTO results VALUES(1, 'norm/x/f16/M', 'sass', 0, 0.02);"
      "PRAGMA user_version = 1;";
  ASSERT_EQ(sqlite3_exec(db, v1, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto store = HistoryStore::open(p, false);
  ASSERT_EQ(store.runs().size(), 1u);
  EXPECT_FALSE(store.device_results(1).has_value()) << "a schema-1 run kept no results";
  store.add(run_of("GPU-V", "2026-01-02T03:00:00Z", "aaa", {{"norm/x/f16/M", 0.02}}));
  EXPECT_TRUE(store.device_results(store.runs().back().id).has_value());
  EXPECT_EQ(store.results("GPU-V").size(), 2u);
}

TEST(HistoryBaselines, ARunnersBaselinePoolsItsRunsSinceTheLastStep) {
  auto store = HistoryStore::open(scratch("baselines.sqlite"), true);
  std::mt19937 rng(5);
  std::normal_distribution<double> z(0, 0.004);
  for (int night = 0; night < 24; ++night) {
    const double slower = night >= 16 ? 1.08 : 1.0;
    store.add(run_of("GPU-1", fmt::format("2026-01-{:02}T03:00:00Z", 1 + night), night >= 16 ? "bbb" : "aaa",
                     {{"norm/layernorm/f16/M", 0.020 * slower * std::exp(z(rng))}, {"matmul/x/f16/M", 0.2 * std::exp(z(rng))}}));
  }
  for (int night = 0; night < 3; ++night) {  // a new runner: too few runs for its own baseline
    store.add(run_of("GPU-2", fmt::format("2026-01-{:02}T04:00:00Z", 1 + night), "bbb", {{"norm/layernorm/f16/M", 0.0216}}));
  }
  const auto made = baselines_from_history(store, {});
  ASSERT_EQ(made.made.size(), 1u);
  const RunnerBaseline& b = made.made[0];
  EXPECT_EQ(b.runner, "GPU-1");
  EXPECT_EQ(b.first_run, 16u);
  EXPECT_EQ(b.pooled_runs, 8u);
  EXPECT_NE(b.after.find("norm/layernorm/f16/M at run 17"), std::string::npos) << b.after;
  const auto& op = b.baseline.operators.at(0);
  ASSERT_EQ(op.timing->run_medians_ms.size(), 8u);
  for (double m : op.timing->run_medians_ms) EXPECT_NEAR(m, 0.0216, 0.0005);  // every pooled run after the step
  ASSERT_EQ(made.skipped.size(), 1u);
  EXPECT_EQ(made.skipped[0].runner, "GPU-2");
  EXPECT_NE(made.skipped[0].why.find("a baseline needs 5"), std::string::npos) << made.skipped[0].why;
}

TEST(HistoryBaselines, ANarrowerRunIsLeftOutAndARunnerWithoutAUuidSkipped) {
  auto store = HistoryStore::open(scratch("baselines_narrow.sqlite"), true);
  for (int night = 0; night < 8; ++night) {
    std::vector<std::pair<std::string, double>> ops{{"norm/a/f16/M", 0.02}, {"norm/b/f16/M", 0.03}};
    if (night == 5) ops.pop_back();  // a --filter run in the middle
    store.add(run_of("GPU-3", fmt::format("2026-02-{:02}T03:00:00Z", 1 + night), "aaa", ops));
    auto loose = run_of("", fmt::format("2026-02-{:02}T04:00:00Z", 1 + night), "aaa", ops);
    loose.devices[0].results.device.uuid.clear();  // recorded as host/index
    store.add(loose);
  }
  const auto made = baselines_from_history(store, {});
  ASSERT_EQ(made.made.size(), 1u);
  EXPECT_EQ(made.made[0].pooled_runs, 7u);
  EXPECT_EQ(made.made[0].baseline.operators.size(), 2u);
  EXPECT_EQ(made.made[0].first_run, 0u);
  EXPECT_EQ(made.made[0].last_run, 7u);
  ASSERT_EQ(made.skipped.size(), 1u);
  EXPECT_EQ(made.skipped[0].runner, "h1/0");
  EXPECT_NE(made.skipped[0].why.find("no GPU UUID"), std::string::npos) << made.skipped[0].why;
}

TEST(HistoryStore, RefusesWhatIsNotItsStoreAndChangesNothing) {
  const std::string text = scratch("not_a_store.sqlite");
  std::ofstream(text) << "this is not a database\n";
  EXPECT_THROW((void)HistoryStore::open(text, true), HistoryError);
  std::ifstream in(text);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "this is not a database");
  // Another application's SQLite database, and a store of a newer schema.
  for (const char* sql : {"CREATE TABLE other(x INTEGER);", "PRAGMA user_version = 99;"}) {
    const std::string p = scratch("foreign.sqlite");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(p.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    try {
      (void)HistoryStore::open(p, true);
      ADD_FAILURE() << sql;
    } catch (const HistoryError& e) {
      EXPECT_NE(std::string(e.what()).find("not changed"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW((void)HistoryStore::open(scratch("absent.sqlite"), false), HistoryError);
}

TEST(HistoryStore, ConcurrentWritersLoseNoRun) {
  const std::string path = scratch("concurrent.sqlite");
  (void)HistoryStore::open(path, true);
  std::vector<std::jthread> writers;
  for (int w = 0; w < 8; ++w) {
    writers.emplace_back([&, w] {
      auto store = HistoryStore::open(path, true);  // a connection of its own, as another process has
      for (int i = 0; i < 10; ++i) {
        store.add(run_of("GPU-" + std::to_string(w), "2026-03-01T00:00:" + std::to_string(10 + i) + "Z", "r",
                         {{"a/b/f16/s", 0.1 + i}}));
      }
    });
  }
  writers.clear();  // joined
  EXPECT_EQ(HistoryStore::open(path, false).runs().size(), 80u);
}

}  // namespace
}  // namespace archbench::history
