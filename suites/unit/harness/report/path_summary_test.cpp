// The "paths" lines of the text report: one per family and dtype, summarised over its shapes, from
// fake results chosen with the real order of preference.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/report/console.hpp"
#include "harness/report/path_summary.hpp"
#include "kernels/path_preference.hpp"
#include "suites/unit/path_results.hpp"

namespace archbench {
namespace {

using testing_support::ada_matmul;
using testing_support::fake_results;
using testing_support::hopper_matmul;
using testing_support::no_image_matmul;
using enum ImageOutcome;

std::vector<std::string> lines(const std::vector<OperatorResult>& results) {
  std::vector<std::string> out;
  for (const auto& s : summarize_paths(choose_paths(results, kernels::path_preferences()))) {
    out.push_back(s.family + " " + std::string(dtype_name(s.dtype)) + ": " + s.text());
  }
  return out;
}

using Lines = std::vector<std::string>;

TEST(PathSummary, HopperTakesWgmmaAndTimesTheOthersAgainstIt) {
  const auto results = fake_results("matmul", hopper_matmul());
  EXPECT_EQ(lines(results), (Lines{"matmul f16: gemm_wgmma (sass sm_90a) on 2/2 shapes; gemm_tc 2.20x slower, "
                                   "gemm_simt 9.00x slower, gemm_cublas 1.05x faster"}));
}

TEST(PathSummary, AdaSaysWhyTheHopperPathDidNotRun) {
  const auto results = fake_results("matmul", ada_matmul("bf16"));
  EXPECT_EQ(lines(results), (Lines{"matmul bf16: gemm_tc (sass sm_80) on 2/2 shapes; gemm_wgmma unsupported, "
                                   "gemm_simt 4.00x slower, gemm_cublas 1.25x faster"}));
}

TEST(PathSummary, NothingRunsSaysSo) {
  const auto results = fake_results("matmul", no_image_matmul());
  EXPECT_EQ(lines(results), (Lines{"matmul f16: nothing runs on 2/2 shapes; gemm_wgmma missing, gemm_tc missing, "
                                   "gemm_simt missing, gemm_cublas runs"}));
}

TEST(PathSummary, QuickRunsSayWhatCouldRunWithoutTimes) {
  const auto results = fake_results("matmul", hopper_matmul(false), testing_support::kMatmulShapes, CheckScope::Quick);
  EXPECT_EQ(lines(results), (Lines{"matmul f16: gemm_wgmma (sass sm_90a) on 2/2 shapes; gemm_tc runs, gemm_simt runs, "
                                   "gemm_cublas runs"}));
}

// Choices that differ by shape: each path's share, the others' outcomes by share, and times as
// geometric means of the ratios to each shape's chosen path.
TEST(PathSummary, MixedShapesCountEachOutcome) {
  auto results = fake_results("attention", {{"flash_simt", "f32", Sass, "sass sm_90a", 20.0},
                                            {"flash_tc", "f16", Sass, "sass sm_90a", 1.6},
                                            {"flash_wgmma", "f16", Sass, "sass sm_90a", 1.0},
                                            {"sdpa_cudnn", "f16", Library, "cuDNN 9.14.0", 1.2}},
                              {"B2_H8_Nq4096_Nk4096_D40", "B2_H8_Nq1024_Nk1024_D80", "B2_H10_Nq4096_Nk4096_D64"});
  results[2].correctness->passed = false;  // flash_wgmma wrong at the first shape
  results[2].timing.reset();
  results.erase(results.begin() + 8);  // no flash_simt at the last shape (as SDXL L1 has none)
  // flash_simt: 20 / 1.6 and 20 / 1.0, geomean 15.8; sdpa_cudnn: 0.75, 1.2, 1.2, geomean 1.026.
  EXPECT_EQ(lines(results),
            (Lines{"attention f16: flash_wgmma (sass sm_90a) on 2/3 shapes, flash_tc (sass sm_90a) on 1/3 shapes; "
                   "flash_wgmma wrong on 1/3, flash_tc 1.60x slower on 2/3, flash_simt 16x slower on 2/3 and absent on "
                   "1/3, sdpa_cudnn 1.03x slower"}));
}

// The text report wraps between paths, never inside one.
TEST(PathSummary, TheTextReportWrapsBetweenPaths) {
  DeviceReport d;
  d.operators = fake_results("matmul", hopper_matmul());
  d.paths = choose_paths(d.operators, kernels::path_preferences());
  EXPECT_EQ(format_paths(d), "paths:\n"
                             "  matmul f16: gemm_wgmma (sass sm_90a) on 2/2 shapes; gemm_tc 2.20x slower, gemm_simt 9.00x "
                             "slower,\n"
                             "    gemm_cublas 1.05x faster\n");
}

TEST(PathSummary, TheTextReportHasAPathsSectionOnlyWithChoices) {
  DeviceReport d;
  EXPECT_EQ(format_paths(d), "");
  d.operators = fake_results("matmul", {{"gemm_tc", "f16", Sass, "sass sm_80", 1.0},
                                        {"gemm_tc", "bf16", Sass, "sass sm_80", 1.0}});
  d.paths = choose_paths(d.operators, kernels::path_preferences());
  EXPECT_EQ(format_paths(d), "paths:\n"
                             "  matmul f16: gemm_tc (sass sm_80) on 2/2 shapes; gemm_wgmma absent, gemm_simt absent\n"
                             "  matmul bf16: gemm_tc (sass sm_80) on 2/2 shapes; gemm_wgmma absent, gemm_simt absent\n");
}

}  // namespace
}  // namespace archbench
