// Result model -> JSON -> result model, the failure rule, and the console writers.
#include <vector>
#include <string>
#include <cmath>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/ops/tensor.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/report/console.hpp"
#include "harness/result/result_json.hpp"
#include "harness/run/timer.hpp"
#include "suites/unit/result_rows.hpp"

namespace archbench {
namespace {

using testing_support::named_result;
using testing_support::passed_check;

OperatorResult sample() {
  OperatorResult r = named_result("matmul/gemm_tc/f16/M8192_N960_K320");
  r.image.status = ImageOutcome::Sass;
  r.image.label = "sass sm_90";
  r.image.kernels.push_back({"gemm_tc_f16", "sass sm_90", 0, 90, 90});
  r.correctness = passed_check(3e-4);
  TimingResult t;
  t.samples_ms = {1.0, 3.0, 2.0, 4.0, 5.0};
  summarize(t);
  r.timing = t;
  return r;
}

TEST(ResultJson, RoundTrips) {
  const OperatorResult r = sample();
  const nlohmann::json j = r;
  const auto back = j.get<OperatorResult>();
  EXPECT_EQ(back.id, r.id);
  EXPECT_EQ(back.image.kernels.size(), 1u);
  EXPECT_EQ(back.image.kernels[0].binary_version, 90);
  ASSERT_TRUE(back.timing.has_value());
  EXPECT_DOUBLE_EQ(back.timing->median_ms, 3.0);
  EXPECT_DOUBLE_EQ(back.timing->q1_ms, 2.0);
  EXPECT_DOUBLE_EQ(back.timing->q3_ms, 4.0);
  EXPECT_EQ(j.at("failed"), false);
  EXPECT_FALSE(j.contains("implementation")) << "own kernels carry no library choice";
}

// The manifest types read back as written: every field of the recorded files' build, environment and
// device sections round-trips through the typed structs (fields added later default in older files).
TEST(ResultJson, StoredManifestsReadIntoTheirTypesAndBack) {
  const std::string dir = std::string(ARCHBENCH_TEST_FIXTURES) + "/";
  size_t compared = 0;
  auto same_where_present = [&](const nlohmann::json& stored, const nlohmann::json& back, const std::string& what) {
    for (const auto& [key, value] : stored.items()) {
      EXPECT_EQ(back.at(key), value) << what << "." << key;
      ++compared;
    }
  };
  for (const char* name : {"run_h200_excerpt.json", "results_h200.json", "history_h200/run_01.json"}) {
    std::ifstream in(dir + name);
    ASSERT_TRUE(in.good()) << name;
    const auto run = nlohmann::json::parse(in);
    same_where_present(run.at("build"), nlohmann::json(run.at("build").get<BuildManifest>()), std::string(name) + " build");
    same_where_present(run.at("environment"), nlohmann::json(run.at("environment").get<Environment>()),
                       std::string(name) + " environment");
    for (const auto& d : run.at("devices")) {
      same_where_present(d.at("device"), nlohmann::json(d.at("device").get<DeviceInfo>()), std::string(name) + " device");
    }
  }
  for (const char* name : {"baseline_h200.json", "baseline_a100.json"}) {
    std::ifstream in(dir + name);
    const auto b = nlohmann::json::parse(in);
    same_where_present(b.at("build"), nlohmann::json(b.at("build").get<BuildManifest>()), std::string(name) + " build");
    same_where_present(b.at("device"), nlohmann::json(b.at("device").get<DeviceInfo>()), std::string(name) + " device");
  }
  EXPECT_GT(compared, 80u);  // every field of the five files (85 when written)
  // This build's own manifest, written and read back whole.
  const BuildManifest& m = build_manifest();
  EXPECT_EQ(nlohmann::json(nlohmann::json(m).get<BuildManifest>()), nlohmann::json(m));
  // A target name this archbench cannot read is refused, not dropped.
  nlohmann::json bad = m;
  bad["sass"] = "sm_75 sm_9x";
  EXPECT_THROW((void)bad.get<BuildManifest>(), nlohmann::json::exception);
}

// Golden: every operator and the ceilings of a recorded H200 run (30 operators, every family,
// check and timing fields) are read into the model and written back unchanged.
TEST(ResultJson, ARecordedH200RunIsWrittenBackUnchanged) {
  std::ifstream in(std::string(ARCHBENCH_TEST_FIXTURES) + "/run_h200_excerpt.json");
  ASSERT_TRUE(in.good());
  const auto run = nlohmann::json::parse(in);
  size_t compared = 0;
  for (const auto& device : run.at("devices")) {
    for (const auto& stored : device.at("operators")) {
      const auto back = nlohmann::json(stored.get<OperatorResult>());
      EXPECT_EQ(back, stored) << "operator " << stored.value("id", "?") << "\nwritten back: " << back.dump(1);
      ++compared;
    }
    EXPECT_EQ(nlohmann::json(device.at("ceilings").get<Ceilings>()), device.at("ceilings"));
  }
  EXPECT_EQ(compared, 30u);
}

// The quick tier's checks never ran the benchmark shape: judged on the check shape alone, and
// said so in the JSON ("scope": "quick"); a full check still needs the benchmark shape.
TEST(ResultJson, QuickChecksAreJudgedOnTheCheckShapeAndSaySo) {
  OperatorResult r = sample();
  r.correctness->scope = CheckScope::Quick;
  r.correctness->bench_shape_finite = false;
  r.timing.reset();
  EXPECT_FALSE(r.failed());
  EXPECT_EQ(operator_verdict(r).name(), "sass");
  const auto j = nlohmann::json(r);
  EXPECT_EQ(j.at("correctness").at("scope"), "quick");
  const auto back = j.get<OperatorResult>();
  EXPECT_EQ(back.correctness->scope, CheckScope::Quick);
  EXPECT_FALSE(back.failed());
  r.correctness->passed = false;
  EXPECT_TRUE(r.failed());
  // A full check with an unwritten benchmark shape fails, and full checks write no scope.
  OperatorResult full = sample();
  full.correctness->bench_shape_finite = false;
  EXPECT_TRUE(full.failed());
  EXPECT_EQ(operator_verdict(full).name(), "wrong");
  EXPECT_FALSE(nlohmann::json(full).at("correctness").contains("scope"));
  // Anything else is a malformed file.
  auto bad = j;
  bad["correctness"]["scope"] = "fast";
  EXPECT_THROW((void)bad.get<OperatorResult>(), nlohmann::json::exception);
}

TEST(ImageResult, RunsOnlyWithAnImageThatLoadsOrALibraryThatAnswered) {
  ImageResult image;
  for (ImageOutcome v : values_of(kImageOutcomes)) {
    image.status = v;
    const bool loads = v == ImageOutcome::Sass || v == ImageOutcome::PtxJit || v == ImageOutcome::Library;
    EXPECT_EQ(image.runs(), loads) << outcome_name(v);
  }
}

TEST(ResultJson, LibraryChoiceRoundTripsAndOlderFilesLackIt) {
  OperatorResult r = sample();
  r.implementation = "cudnnConvolutionForward IMPLICIT_PRECOMP_GEMM, tensor-op math, workspace 0 B (heuristic rank 0)";
  nlohmann::json j = r;
  EXPECT_EQ(j.get<OperatorResult>().implementation, r.implementation);
  j.erase("implementation");
  EXPECT_EQ(j.get<OperatorResult>().implementation, "");
}

TEST(ResultJson, GoogleBenchmarkFormatHasOneRepetitionPerSample) {
  RunReport report;
  DeviceReport d;
  d.operators.push_back(sample());
  report.devices.push_back(d);
  const auto j = report_to_gbench_json(report);
  ASSERT_EQ(j.at("benchmarks").size(), 5u);
  const auto& b = j.at("benchmarks")[1];
  EXPECT_EQ(b.at("name"), "matmul/gemm_tc/f16/M8192_N960_K320");
  EXPECT_EQ(b.at("repetitions"), 5);
  EXPECT_EQ(b.at("repetition_index"), 1);
  EXPECT_EQ(b.at("time_unit"), "ms");
  EXPECT_DOUBLE_EQ(b.at("real_time").get<double>(), 3.0);
  EXPECT_TRUE(j.at("context").contains("executable"));
}

TEST(ResultRules, WhatCountsAsFailure) {
  OperatorResult r = sample();
  EXPECT_FALSE(r.failed());
  r.image.status = ImageOutcome::Missing;
  EXPECT_TRUE(r.failed());
  r.image.status = ImageOutcome::Unsupported;
  EXPECT_FALSE(r.failed());
  r = sample();
  r.correctness->passed = false;
  EXPECT_TRUE(r.failed());
  r = sample();
  r.image.agrees = false;
  EXPECT_TRUE(r.failed());
  r = sample();
  r.correctness.reset();
  EXPECT_TRUE(r.failed());
}

TEST(Console, GroupsFindingsByCause) {
  DeviceReport d;
  for (int i = 0; i < 3; ++i) {
    OperatorResult r = sample();
    r.id += std::to_string(i);
    r.image.status = ImageOutcome::Missing;
    r.image.label = "missing";
    r.image.cause = "built for SASS sm_80";
    r.image.fix = "add 9.0";
    r.correctness.reset();
    r.timing.reset();
    d.operators.push_back(r);
  }
  const std::string f = format_findings(d);
  EXPECT_NE(f.find("3 operator(s)"), std::string::npos) << f;
  EXPECT_NE(f.find("fix: add 9.0"), std::string::npos) << f;
  EXPECT_NE(format_operator_table(d).find("missing"), std::string::npos);
}

TEST(ReferenceCompare, NormwiseErrorAndNaNNeverPasses) {
  const std::vector<double> ref{1.0, -2.0, 3.0, 4.0};
  auto r = compare_to_reference({1.0, -2.0, 3.0, 4.0}, ref, 1e-5);
  EXPECT_TRUE(r.passed);
  EXPECT_DOUBLE_EQ(r.rel_error, 0.0);
  r = compare_to_reference({1.0, -2.0, 3.0, 4.1}, ref, 1e-5);
  EXPECT_FALSE(r.passed);
  EXPECT_NEAR(r.rel_error, 0.1 / std::sqrt(30.0), 1e-12);
  r = compare_to_reference({1.0, -2.0, std::nan(""), 4.0}, ref, 1.0);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.non_finite, 1u);
}

TEST(Selection, ANarrowedRunSaysWhatItLeftOut) {
  const Selection all{"*", {}, 196, 196};
  EXPECT_FALSE(all.narrowed());
  EXPECT_EQ(all.describe(), "all 196 operators");
  const Selection some{"matmul/*", {"f16", "bf16"}, 12, 196};
  EXPECT_TRUE(some.narrowed());
  EXPECT_EQ(some.describe(), "12 of 196 operators (--filter 'matmul/*' --dtype f16,bf16); 184 left out");
}

TEST(Selection, TheRunJsonRecordsIt) {
  RunReport r;
  r.selection = Selection{"norm/*", {}, 21, 196};
  const auto j = report_to_json(r);
  EXPECT_EQ(j.at("selection").at("filter"), "norm/*");
  EXPECT_EQ(j.at("selection").at("selected"), 21);
  EXPECT_EQ(j.at("selection").at("registered"), 196);
}

}  // namespace
}  // namespace archbench
