// Which path ran: the choice among a family's own paths from one device's fake results, with the
// real order of preference (kernels/path_preference.cpp), and its run JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/result/path_choice.hpp"
#include "harness/result/result_json.hpp"
#include "kernels/path_preference.hpp"
#include "suites/unit/path_results.hpp"

namespace archbench {
namespace {

using testing_support::FakePath;
using testing_support::ada_matmul;
using testing_support::fake_results;
using testing_support::hopper_matmul;
using testing_support::no_image_matmul;
using enum ImageOutcome;

std::vector<PathChoice> choose(const std::vector<OperatorResult>& results) {
  return choose_paths(results, kernels::path_preferences());
}

std::vector<std::string> names(const PathChoice& c) {
  std::vector<std::string> n;
  for (const auto& p : c.own) n.push_back(p.name);
  return n;
}

// An H200 with a 9.0a build: all three own paths run; the Hopper kernel is taken.
TEST(PathChoice, HopperRunsEveryPathAndTakesWgmma) {
  const auto results = fake_results("matmul", hopper_matmul());
  const auto choices = choose(results);
  ASSERT_EQ(choices.size(), 2u) << "one problem per f16 shape; f32 has no choice";
  const PathChoice& c = choices[1];
  EXPECT_EQ(c.family, "matmul");
  EXPECT_EQ(c.dtype, DType::F16);
  EXPECT_EQ(c.shape, "M4096_N4096_K4096");
  EXPECT_EQ(names(c), (std::vector<std::string>{"gemm_wgmma", "gemm_tc", "gemm_simt"}));
  ASSERT_NE(c.chosen_path(), nullptr);
  EXPECT_EQ(c.chosen_path()->name, "gemm_wgmma");
  EXPECT_EQ(c.chosen_path()->label, "sass sm_90a");
  EXPECT_DOUBLE_EQ(c.own[0].time_ratio.value(), 1.0);
  EXPECT_DOUBLE_EQ(c.own[1].time_ratio.value(), 2.2);
  EXPECT_DOUBLE_EQ(c.own[2].time_ratio.value(), 9.0);
  EXPECT_EQ(c.own[2].id, "matmul/gemm_simt/f32/M4096_N4096_K4096") << "the SIMT fallback computes in f32";
  ASSERT_TRUE(c.twin.has_value());
  EXPECT_EQ(c.twin->id, "matmul/gemm_cublas/f16/M4096_N4096_K4096");
  EXPECT_DOUBLE_EQ(c.twin->time_ratio.value(), 0.95);
}

// An RTX 4090 (CC 8.9) with a "9.0a;8.0+PTX" build: sm_90a code runs on CC 9.0 only, so the
// wgmma path is unsupported and the portable tensor-core kernel (SASS sm_80) is taken.
TEST(PathChoice, AdaSkipsTheSm90aPathAsUnsupported) {
  const auto results = fake_results("matmul", ada_matmul("f16"));
  for (const auto& c : choose(results)) {
    ASSERT_EQ(c.chosen, 1u);
    EXPECT_EQ(c.chosen_path()->name, "gemm_tc");
    EXPECT_TRUE(c.own[0].verdict.is(Unsupported));
    EXPECT_FALSE(c.own[0].usable);
    EXPECT_FALSE(c.own[0].time_ratio.has_value());
    EXPECT_DOUBLE_EQ(c.own[2].time_ratio.value(), 4.0);
    EXPECT_DOUBLE_EQ(c.twin->time_ratio.value(), 0.8);
  }
}

// A build whose tensor-core kernel has no image for the device (an arch-list override, say):
// missing is a finding, and the SIMT path still runs.
TEST(PathChoice, FallsBackToSimtWhenTheTensorCorePathIsMissing) {
  const auto results = fake_results("matmul", {{"gemm_simt", "f32", Sass, "sass sm_86", 8.0},
                                               {"gemm_tc", "f16", Missing, "missing", std::nullopt},
                                               {"gemm_wgmma", "f16", Unsupported, "unsupported", std::nullopt}});
  for (const auto& c : choose(results)) {
    ASSERT_NE(c.chosen_path(), nullptr);
    EXPECT_EQ(c.chosen_path()->name, "gemm_simt");
    EXPECT_TRUE(c.own[1].verdict.is(Missing));
    EXPECT_EQ(c.own[1].verdict.name(), "missing");
    EXPECT_DOUBLE_EQ(c.own[2].time_ratio.value(), 1.0);
    EXPECT_FALSE(c.twin.has_value()) << "no twin in this run";
  }
}

// No own image runs: the field's "no kernel image is available". The library still does, but
// there is nothing to compare its time with.
TEST(PathChoice, NothingRunsWhenNoOwnImageLoads) {
  const auto results = fake_results("matmul", no_image_matmul());
  const auto choices = choose(results);
  ASSERT_EQ(choices.size(), 2u);
  for (const auto& c : choices) {
    EXPECT_FALSE(c.chosen.has_value());
    EXPECT_EQ(c.chosen_path(), nullptr);
    for (const auto& p : c.own) EXPECT_TRUE(p.verdict.is(Missing)) << p.id;
    ASSERT_TRUE(c.twin.has_value());
    EXPECT_TRUE(c.twin->usable);
    EXPECT_FALSE(c.twin->time_ratio.has_value());
  }
}

// The preferred path's image runs but its result is wrong: skipped, and the choice says why.
TEST(PathChoice, AWrongResultOnThePreferredPathIsSkipped) {
  const auto results = fake_results("attention", {{"flash_tc", "bf16", Sass, "sass sm_90a", 1.6},
                                                  {"flash_wgmma", "bf16", Sass, "sass sm_90a", 1.0, false},
                                                  {"sdpa_cudnn", "bf16", Library, "cuDNN 9.14.0", 1.2}},
                                    {"B2_H8_Nq1024_Nk1024_D80"});
  const auto choices = choose(results);
  ASSERT_EQ(choices.size(), 1u);
  const PathChoice& c = choices[0];
  EXPECT_EQ(names(c), (std::vector<std::string>{"flash_wgmma", "flash_tc", "flash_simt"}));
  EXPECT_EQ(c.chosen_path()->name, "flash_tc");
  EXPECT_EQ(c.own[0].verdict.outcome, OperatorVerdict::Outcome::Wrong);
  EXPECT_EQ(c.own[0].verdict.name(), "wrong");
  EXPECT_FALSE(c.own[0].time_ratio.has_value()) << "a wrong result is never timed";
  EXPECT_EQ(c.own[2].verdict.outcome, OperatorVerdict::Outcome::Absent) << "flash_simt is not in this run";
  EXPECT_NEAR(c.twin->time_ratio.value(), 0.75, 1e-12);

  // An error is no better than a wrong result; a worker fault neither.
  auto erred = results;
  erred[1].correctness->passed = true;
  erred[1].error = "an illegal memory access was encountered";
  EXPECT_EQ(choose(erred)[0].own[0].verdict.name(), "error");
  EXPECT_EQ(choose(erred)[0].chosen_path()->name, "flash_tc");
  auto faulted = results;
  faulted[1].correctness->passed = true;
  faulted[1].fault = WorkerFault::Hung;
  EXPECT_EQ(choose(faulted)[0].chosen_path()->name, "flash_tc");
}

// The quick tier checks and does not time: the same choice from verdicts and checks, no ratios.
TEST(PathChoice, QuickRunsChooseWithoutRatios) {
  const auto results = fake_results("matmul", hopper_matmul(false), testing_support::kMatmulShapes, CheckScope::Quick);
  for (const auto& c : choose(results)) {
    EXPECT_EQ(c.chosen_path()->name, "gemm_wgmma");
    for (const auto& p : c.own) {
      EXPECT_TRUE(p.usable) << p.id;
      EXPECT_FALSE(p.time_ratio.has_value()) << p.id;
    }
    EXPECT_FALSE(c.twin->time_ratio.has_value());
  }
}

// A filtered run: the paths it left out are absent, and the choice is among those it ran. A run
// of f32 or of other families has no problem to choose for.
TEST(PathChoice, PathsNotInTheRunAreAbsent) {
  const auto tc_only = fake_results("matmul", {{"gemm_tc", "bf16", PtxJit, "ptx-jit from compute_80", 1.0}});
  const auto choices = choose(tc_only);
  ASSERT_EQ(choices.size(), 2u);
  EXPECT_EQ(choices[0].dtype, DType::BF16);
  EXPECT_EQ(choices[0].chosen_path()->name, "gemm_tc");
  EXPECT_EQ(choices[0].own[0].verdict.name(), "absent");
  EXPECT_EQ(choices[0].own[2].verdict.name(), "absent");
  EXPECT_TRUE(choose(fake_results("matmul", {{"gemm_simt", "f32", Sass, "sass sm_90", 1.0}})).empty());
  EXPECT_TRUE(choose(fake_results("norm", {{"layernorm", "f16", Sass, "sass sm_90", 1.0}})).empty());
}

TEST(PathChoice, RoundTripsThroughTheRunJson) {
  auto results = fake_results("matmul", {{"gemm_simt", "f32", Sass, "sass sm_80", 6.0},
                                         {"gemm_tc", "f16", Sass, "sass sm_80", 1.5},
                                         {"gemm_wgmma", "f16", Sass, "sass sm_90a", 1.0, false},
                                         {"gemm_cublas", "f16", Library, "cuBLAS 13.1.0", 1.2}});
  RunReport report;
  report.devices.push_back({});
  report.devices[0].paths = choose(results);
  const nlohmann::json j = report_to_json(report);
  const auto& stored = j.at("devices")[0].at("paths");
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored[0].at("chosen"), "gemm_tc");
  EXPECT_EQ(stored[0].at("own")[0].at("verdict"), "wrong");
  EXPECT_EQ(stored[0].at("own")[0].at("image"), "sass");
  EXPECT_TRUE(stored[0].at("own")[0].at("time_ratio").is_null());
  EXPECT_DOUBLE_EQ(stored[0].at("own")[2].at("time_ratio").get<double>(), 4.0);
  for (size_t i = 0; i < stored.size(); ++i) {
    const auto back = stored[i].get<PathChoice>();
    EXPECT_EQ(nlohmann::json(back), stored[i]);
    EXPECT_EQ(back.chosen, report.devices[0].paths[i].chosen);
    EXPECT_EQ(back.own[0].verdict, report.devices[0].paths[i].own[0].verdict);
  }
  // Nothing chosen is null; a verdict or a chosen path this archbench does not know is rejected.
  auto none = stored[0];
  none["chosen"] = nullptr;
  EXPECT_FALSE(none.get<PathChoice>().chosen.has_value());
  auto bad = stored[0];
  bad["chosen"] = "gemm_nosuch";
  EXPECT_THROW((void)bad.get<PathChoice>(), nlohmann::json::exception);
  bad = stored[0];
  bad["own"][0]["verdict"] = "slow";
  EXPECT_THROW((void)bad.get<PathChoice>(), nlohmann::json::exception);
}

}  // namespace
}  // namespace archbench
