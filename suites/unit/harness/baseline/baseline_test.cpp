// Baseline files (corrupt, wrong schema version, wrong device key, refusing to overwrite) and the
// comparison verdicts, on synthetic results.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include <filesystem>
#include <fstream>
#include <random>

#include "harness/baseline/compare.hpp"
#include "harness/result/result_json.hpp"
#include "harness/run/timer.hpp"
#include "suites/unit/synthetic_results.hpp"

namespace archbench {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("archbench_baseline_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

OperatorResult op(const std::string& id, double center_ms, unsigned seed, ImageOutcome image = ImageOutcome::Sass) {
  OperatorResult r;
  r.id = id;
  r.family = "matmul";
  r.image.status = image;
  r.image.label = image == ImageOutcome::Sass ? "sass sm_90" : std::string(outcome_name(image));
  CorrectnessResult c;
  c.passed = true;
  c.bench_shape_finite = true;
  r.correctness = c;
  TimingResult t;
  std::mt19937 rng(seed);
  std::normal_distribution<double> d(center_ms, center_ms * 0.005);
  for (int i = 0; i < 40; ++i) t.samples_ms.push_back(d(rng));
  summarize(t);
  r.timing = t;
  return r;
}

DeviceResults device(std::vector<OperatorResult> ops) { return testing_support::synthetic_h200(std::move(ops)); }

TEST(DeviceKey, NameCcAndMemory) {
  EXPECT_EQ(device_key("NVIDIA H200", "9.0", 150110011392), "nvidia-h200-cc90-140g");
  EXPECT_EQ(device_key("NVIDIA GeForce RTX 5090", "12.0", 34190000000ull), "nvidia-geforce-rtx-5090-cc120-32g");
}

TEST(BaselineFile, RoundTripsAtomically) {
  TempDir dir;
  const auto path = dir.file("b.json");
  save_baseline(path, device({op("a", 1.0, 1)}));
  const auto back = load_baseline(path);
  EXPECT_EQ(back.key, "nvidia-h200-cc90-140g");
  ASSERT_EQ(back.operators.size(), 1u);
  EXPECT_EQ(back.operators[0].timing->samples_ms.size(), 40u);
}

TEST(BaselineFile, RejectsCorruptForeignAndOldFiles) {
  TempDir dir;
  auto expect_error = [](const std::string& path, const std::string& says) {
    try {
      (void)load_baseline(path);
      ADD_FAILURE() << "accepted " << path;
    } catch (const StoredFileError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  };
  const auto good = dir.file("good.json");
  save_baseline(good, device({op("a", 1.0, 1)}));
  std::ifstream in(good);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

  write(dir.file("truncated.json"), text.substr(0, text.size() / 2));
  expect_error(dir.file("truncated.json"), "not valid JSON");
  write(dir.file("empty.json"), "");
  expect_error(dir.file("empty.json"), "not valid JSON");
  write(dir.file("results.json"), R"({"schema": "archbench.run", "schema_version": 1})");
  expect_error(dir.file("results.json"), "not an archbench.baseline file");
  auto j = nlohmann::json::parse(text);
  j["schema_version"] = 99;
  write(dir.file("future.json"), j.dump());
  expect_error(dir.file("future.json"), "schema_version 99");
  j = nlohmann::json::parse(text);
  j["device_key"] = "nvidia-a100-cc80-80g";
  write(dir.file("foreign.json"), j.dump());
  expect_error(dir.file("foreign.json"), "does not match its device");
  j = nlohmann::json::parse(text);
  j["operators"][0].erase("timing");
  write(dir.file("missing.json"), j.dump());
  expect_error(dir.file("missing.json"), "malformed");
  expect_error(dir.file("nonexistent.json"), "cannot read");
  // Found by fuzzing: a number that overflows is a parse failure too, not an escaping exception.
  write(dir.file("overflow.json"), R"({"schema": "archbench.baseline", "schema_version": 1, "x": 150110E11392})");
  expect_error(dir.file("overflow.json"), "not valid JSON");
  j = nlohmann::json::parse(text);
  j["device"]["memory_bytes"] = "lots";
  write(dir.file("wrongtype.json"), j.dump());
  expect_error(dir.file("wrongtype.json"), "malformed");
  // A verdict this archbench does not know names the operator, the field and the value.
  j = nlohmann::json::parse(text);
  j["operators"][0]["image"]["status"] = "error";
  write(dir.file("verdict.json"), j.dump());
  expect_error(dir.file("verdict.json"), R"(operator "a" is malformed)");
  expect_error(dir.file("verdict.json"), "image.status is 'error'");
}

TEST(Compare, SameBuildSameNoiseIsSame) {
  const auto rows = compare_results(device({op("a", 1.0, 1), op("b", 0.05, 2)}), device({op("a", 1.0, 3), op("b", 0.05, 4)}), {});
  for (const auto& r : rows) EXPECT_EQ(r.change, Change::Same) << r.id << ": " << r.detail;
}

TEST(Compare, FlagsEveryKindOfRegression) {
  auto slow = op("slow", 1.10, 5);
  auto image = op("image", 1.0, 6, ImageOutcome::PtxJit);
  auto wrong = op("wrong", 1.0, 7);
  wrong.correctness->passed = false;
  const auto base = device({op("slow", 1.0, 1), op("image", 1.0, 2), op("wrong", 1.0, 3), op("gone", 1.0, 4), op("fast", 1.0, 8)});
  const auto now = device({slow, image, wrong, op("new", 1.0, 9), op("fast", 0.8, 10)});
  std::map<std::string, Change> got;
  for (const auto& r : compare_results(base, now, {})) got[r.id] = r.change;
  EXPECT_EQ(got["slow"], Change::Slower);
  EXPECT_EQ(got["image"], Change::ImageRegressed);
  EXPECT_EQ(got["wrong"], Change::CorrectnessRegressed);
  EXPECT_EQ(got["gone"], Change::Absent);
  EXPECT_EQ(got["new"], Change::New);
  EXPECT_EQ(got["fast"], Change::Faster);
}

TEST(Compare, ASlowdownStandsOnlyWhenTheReRunIsSlowerToo) {
  // Four baseline runs at 1.00 ms. First run: "transient" 1.10 ms (the re-run is back at 1.00),
  // "real" 1.10 ms (1.11 again), "skipped" 1.10 ms (not re-run), "wrong" a correctness regression.
  const auto base = merge_runs({device({op("transient", 1.0, 1), op("real", 1.0, 2), op("skipped", 1.0, 3), op("wrong", 1.0, 4)}),
                                device({op("transient", 1.0, 5), op("real", 1.0, 6), op("skipped", 1.0, 7), op("wrong", 1.0, 8)})});
  auto wrong = op("wrong", 1.0, 9);
  wrong.correctness->passed = false;
  auto rows = compare_results(base, device({op("transient", 1.10, 10), op("real", 1.10, 11), op("skipped", 1.10, 12), wrong}), {});
  // The re-run holds the slower operators but one, compared with the baseline restricted to them.
  DeviceResults base_part = base;
  std::erase_if(base_part.operators, [](const OperatorResult& r) { return r.id != "transient" && r.id != "real"; });
  const auto rerun = compare_results(base_part, device({op("transient", 1.00, 13), op("real", 1.11, 14)}), {}, &base);
  EXPECT_EQ(confirm_slowdowns(rows, rerun), 1);
  std::map<std::string, Comparison> by;
  for (const auto& r : rows) by[r.id] = r;
  EXPECT_EQ(by["transient"].change, Change::Unconfirmed) << by["transient"].detail;
  EXPECT_FALSE(by["transient"].regression());
  EXPECT_NE(by["transient"].detail.find("same in the re-run"), std::string::npos) << by["transient"].detail;
  EXPECT_EQ(by["real"].change, Change::Slower);
  EXPECT_NE(by["real"].detail.find("confirmed by the re-run (+1"), std::string::npos) << by["real"].detail;
  EXPECT_EQ(by["skipped"].change, Change::Slower);
  EXPECT_NE(by["skipped"].detail.find("not in the re-run"), std::string::npos) << by["skipped"].detail;
  EXPECT_EQ(by["wrong"].change, Change::CorrectnessRegressed);  // never "confirmed" away
  EXPECT_EQ(change_name(Change::Unconfirmed), "unconfirmed");
  // A re-run without the operator at all (absent) confirms nothing.
  auto again = compare_results(base, device({op("transient", 1.10, 15)}), {});
  const auto absent = compare_results(base_part, device({op("real", 1.11, 16)}), {}, &base);
  EXPECT_EQ(confirm_slowdowns(again, absent), 0);
  EXPECT_EQ(again[0].change, Change::Slower);
  // Nor does a re-run that timed it another way (CUDA-graph replay against single launches).
  auto replayed = op("transient", 1.00, 17);
  replayed.timing->mode = LaunchMode::Graph;
  replayed.timing->graph_batch = 10;
  DeviceResults transient_base = base;
  std::erase_if(transient_base.operators, [](const OperatorResult& r) { return r.id != "transient"; });
  const auto other_mode = compare_results(transient_base, device({replayed}), {}, &base);
  ASSERT_EQ(other_mode[0].change, Change::TimingModeChanged) << other_mode[0].detail;
  EXPECT_EQ(confirm_slowdowns(again, other_mode), 0);
  EXPECT_EQ(again[0].change, Change::Slower);
  EXPECT_NE(again[0].detail.find("judged it timing-mode-changed"), std::string::npos) << again[0].detail;
}

TEST(Compare, PooledRunsSetTheEnvelope) {
  // Three baseline runs whose medians differ by 8% (run-to-run noise, tight within each run).
  const auto base = merge_runs({device({op("a", 1.00, 1)}), device({op("a", 1.08, 2)}), device({op("a", 1.04, 3)})});
  ASSERT_EQ(base.operators[0].timing->run_medians_ms.size(), 3u);
  EXPECT_EQ(base.operators[0].timing->samples_ms.size(), 120u);
  EXPECT_EQ(compare_results(base, device({op("a", 1.07, 4)}), {})[0].change, Change::Same);
  EXPECT_EQ(compare_results(base, device({op("a", 1.20, 5)}), {})[0].change, Change::Slower);  // margin = 8% spread
  EXPECT_EQ(compare_results(base, device({op("a", 0.90, 6)}), {})[0].change, Change::Faster);
  auto other = device({op("a", 1.0, 7)});
  other.key = "nvidia-a100-cc80-80g";
  EXPECT_THROW((void)merge_runs({device({op("a", 1.0, 1)}), other}), StoredFileError);
}

TEST(Compare, BaselineRunsThatDisagreeMarkTheOperatorUnstable) {
  // As cuDNN's legacy conv path on the H200: run medians 0.095, 0.094, 0.197 ms (tight within each run).
  const auto base = merge_runs({device({op("a", 0.095, 1)}), device({op("a", 0.094, 2)}), device({op("a", 0.197, 3)})});
  const auto rows = compare_results(base, device({op("a", 0.30, 4)}), {});
  EXPECT_EQ(rows[0].change, Change::Unstable) << rows[0].detail;
  EXPECT_FALSE(rows[0].regression());
  EXPECT_EQ(change_name(Change::Unstable), "unstable");
  EXPECT_NE(rows[0].detail.find("not gated"), std::string::npos) << rows[0].detail;
  // A family may accept a wider spread: then the envelope (and its width as the margin) decides.
  TempDir dir;
  write(dir.file("t.json"), R"({"families": {"matmul": {"max_spread": 2.0}}})");
  // margin = the 108% spread: 0.45 ms is beyond 0.197 x 2.08
  const auto wide = compare_results(base, device({op("a", 0.45, 4)}), Thresholds::load(dir.file("t.json")));
  EXPECT_EQ(wide[0].change, Change::Slower) << wide[0].detail;
  write(dir.file("bad.json"), R"({"default": {"max_spread": 0}})");
  EXPECT_THROW((void)Thresholds::load(dir.file("bad.json")), StoredFileError);
}

TEST(Compare, TwoModesWithinMaxSpreadAreGatedWithTheSpreadAsMargin) {
  // As cuBLAS's tf32 GEMM at 4608x12288x3072 on the H200: run medians 0.898-0.908 ms in some
  // processes, 1.002-1.061 ms in others (same clocks). Both modes in the baseline: either is `same`,
  // a slowdown beyond the slow mode by more than the spread is `slower`.
  const auto base = merge_runs({device({op("a", 0.900, 1)}), device({op("a", 0.905, 2)}),
                                device({op("a", 1.040, 3)}), device({op("a", 1.055, 4)})});
  EXPECT_EQ(compare_results(base, device({op("a", 0.902, 5)}), {})[0].change, Change::Same);
  EXPECT_EQ(compare_results(base, device({op("a", 1.050, 6)}), {})[0].change, Change::Same);
  const auto rows = compare_results(base, device({op("a", 1.30, 7)}), {});  // 1.055 x (1 + 16%) = 1.22
  EXPECT_EQ(rows[0].change, Change::Slower) << rows[0].detail;
  EXPECT_NE(rows[0].detail.find("margin 16."), std::string::npos) << rows[0].detail;
}

TEST(Compare, AVariantMostlyUnstableIsNotGatedAtItsQuietShapesEither) {
  // conv/conv_cudnn_nhwc: two of three shapes moved 2x between the baseline's runs; the third did not
  // (yet). Another variant of the same family is quiet: it stays gated.
  auto named = [](const std::string& id, const std::string& name, double ms, unsigned seed) {
    auto r = op(id, ms, seed);
    r.family = "conv";
    r.name = name;
    return r;
  };
  auto run = [&](double wide, unsigned seed) {
    return device({named("twin_a", "conv_cudnn_nhwc", wide, seed), named("twin_b", "conv_cudnn_nhwc", wide, seed + 10),
                   named("twin_c", "conv_cudnn_nhwc", 0.1, seed + 20), named("own", "conv_tc", 0.1, seed + 30)});
  };
  const auto base = merge_runs({run(0.1, 1), run(0.1, 2), run(0.2, 3)});
  const auto rows = compare_results(base, device({named("twin_c", "conv_cudnn_nhwc", 0.17, 9),
                                                  named("own", "conv_tc", 0.17, 9)}),
                                    {});
  std::map<std::string, Comparison> by;
  for (const auto& r : rows) by[r.id] = r;
  EXPECT_EQ(by["twin_c"].change, Change::Unstable) << by["twin_c"].detail;
  EXPECT_NE(by["twin_c"].detail.find("2 of 3 operators of conv/conv_cudnn_nhwc"), std::string::npos) << by["twin_c"].detail;
  EXPECT_EQ(by["own"].change, Change::Slower) << by["own"].detail;
}

TEST(Compare, ThresholdsPerFamilyAndClockDrift) {
  TempDir dir;
  write(dir.file("t.json"), R"({"default": {"min_effect": 0.2}, "families": {"matmul": {"min_effect": 0.02}}})");
  const auto th = Thresholds::load(dir.file("t.json"));
  EXPECT_DOUBLE_EQ(th.rule("matmul").min_effect, 0.02);
  EXPECT_DOUBLE_EQ(th.rule("conv").min_effect, 0.2);
  const auto rows = compare_results(device({op("a", 1.0, 1)}), device({op("a", 1.10, 2)}), th);
  EXPECT_EQ(rows[0].change, Change::Slower);

  // 10% slower in time but the SM clock dropped 10%: same cycles -> not a code regression.
  auto base = op("a", 1.0, 1);
  auto now = op("a", 1.10, 2);
  base.timing->median_cycles = 1.0e6;
  now.timing->median_cycles = 1.0e6;
  const auto drift = compare_results(device({base}), device({now}), th);
  EXPECT_EQ(drift[0].change, Change::Same) << drift[0].detail;
  EXPECT_NE(drift[0].detail.find("clock drift"), std::string::npos);
  EXPECT_TRUE(drift[0].clock_explained);
  EXPECT_FALSE(rows[0].clock_explained);

  write(dir.file("bad.json"), R"({"default": {"min_effect": -1}})");
  EXPECT_THROW((void)Thresholds::load(dir.file("bad.json")), StoredFileError);
}

}  // namespace
}  // namespace archbench
