// How the timing mode (single launches or CUDA-graph replay) is stored and judged: the JSON
// round trip with and without the graph fields (older results and the committed baselines have
// none), compare with a baseline timed in the other mode, pooling runs of different modes, and
// the finding a fallback leaves in the console report.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "harness/baseline/baseline_file.hpp"
#include "harness/baseline/compare.hpp"
#include "harness/report/console.hpp"
#include "harness/result/result_json.hpp"
#include "harness/run/timer.hpp"
#include "suites/unit/synthetic_results.hpp"

namespace archbench {
namespace {

TimingResult timing(double center_ms, unsigned seed, LaunchMode mode = LaunchMode::Async, int batch = 0) {
  return testing_support::synthetic_timing(center_ms, seed, mode, batch);
}

OperatorResult op(const std::string& id, const TimingResult& t) { return testing_support::synthetic_operator(id, t); }

DeviceResults device(std::vector<OperatorResult> ops) { return testing_support::synthetic_h200(std::move(ops)); }

TEST(TimingJson, GraphFieldsRoundTrip) {
  TimingResult t = timing(0.004, 1, LaunchMode::Graph, 50);
  const auto back = nlohmann::json(t).get<TimingResult>();
  EXPECT_EQ(back.mode, LaunchMode::Graph);
  EXPECT_EQ(back.graph_batch, 50);
  EXPECT_TRUE(back.graph_fallback.empty());

  t = timing(0.004, 2);
  t.graph_fallback = "a launch failed under stream capture: cudaErrorStreamCaptureUnsupported";
  const auto j = nlohmann::json(t);
  EXPECT_EQ(j.at("graph_batch"), 0);
  const auto fell_back = j.get<TimingResult>();
  EXPECT_EQ(fell_back.mode, LaunchMode::Async);
  EXPECT_EQ(fell_back.graph_fallback, t.graph_fallback);
}

TEST(TimingJson, ResultsWithoutGraphFieldsStillRead) {
  auto j = nlohmann::json(timing(1.0, 3));
  j.erase("graph_batch");
  j.erase("graph_fallback");
  const auto old = j.get<TimingResult>();
  EXPECT_EQ(old.mode, LaunchMode::Async);
  EXPECT_EQ(old.graph_batch, 0);
  EXPECT_TRUE(old.graph_fallback.empty());
  EXPECT_EQ(old.samples_ms.size(), 40u);
  // A present field of the wrong type is still an error, not a silent default.
  j["graph_batch"] = "many";
  EXPECT_THROW((void)j.get<TimingResult>(), nlohmann::json::exception);
}

TEST(TimingJson, ModesAndStopReasonsRoundTripThroughTheirNames) {
  for (LaunchMode m : values_of(kLaunchModes)) {
    EXPECT_EQ(parse_name(kLaunchModes, launch_mode_name(m)), m) << launch_mode_name(m);
    TimingResult t = timing(1.0, 4, m);
    EXPECT_EQ(nlohmann::json(t).get<TimingResult>().mode, m) << launch_mode_name(m);
  }
  for (StopReason r : values_of(kStopReasons)) {
    EXPECT_EQ(parse_name(kStopReasons, stop_reason_name(r)), r) << stop_reason_name(r);
    TimingResult t = timing(1.0, 5);
    t.stop_reason = r;
    EXPECT_EQ(nlohmann::json(t).get<TimingResult>().stop_reason, r) << stop_reason_name(r);
  }
  EXPECT_EQ(stop_reason_name(TimingResult{}.stop_reason), "") << "hand-built timings record no reason";
  CorrectnessResult c;
  EXPECT_EQ(nlohmann::json(c).at("mode"), "blocking");
  c.mode = LaunchMode::Async;
  EXPECT_EQ(nlohmann::json(c).get<CorrectnessResult>().mode, LaunchMode::Async);
}

TEST(TimingJson, AnUnknownModeOrStopReasonIsRejectedNamingFieldAndValue) {
  auto expect_rejected = [](const auto& read, const std::string& says) {
    try {
      read();
      ADD_FAILURE() << "accepted: " << says;
    } catch (const nlohmann::json::exception& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  const auto good = nlohmann::json(timing(1.0, 6));
  auto j = good;
  j["mode"] = "replay";
  expect_rejected([&] { (void)j.get<TimingResult>(); }, "timing.mode is 'replay', not one of 'async', 'blocking', 'graph'");
  j = good;
  j["stop_reason"] = "done";
  expect_rejected([&] { (void)j.get<TimingResult>(); }, "timing.stop_reason is 'done', not one of '', 'noise target'");
  auto c = nlohmann::json(CorrectnessResult{});
  c["mode"] = "Blocking";
  expect_rejected([&] { (void)c.get<CorrectnessResult>(); }, "correctness.mode is 'Blocking'");
}

// The committed files were written before the graph fields existed.
TEST(TimingJson, CommittedResultsAndBaselinesStillLoad) {
  const std::filesystem::path fixtures = ARCHBENCH_TEST_FIXTURES;
  std::vector<OperatorResult> ops = load_run_results((fixtures / "results_h200.json").string()).front().operators;
  const auto base = load_baseline((fixtures / "baseline_h200.json").string()).operators;
  ops.insert(ops.end(), base.begin(), base.end());
  const auto shipped = fixtures.parent_path().parent_path() / "baselines" / "nvidia-h200-cc90-140g.json";
  if (std::filesystem::exists(shipped)) {
    const auto b = load_baseline(shipped.string()).operators;
    ops.insert(ops.end(), b.begin(), b.end());
  }
  size_t timed = 0;
  for (const auto& r : ops) {
    if (!r.timing) continue;
    ++timed;
    EXPECT_NE(r.timing->mode, LaunchMode::Graph) << r.id;
    EXPECT_EQ(r.timing->graph_batch, 0) << r.id;
    EXPECT_TRUE(r.timing->graph_fallback.empty()) << r.id;
  }
  EXPECT_GT(timed, 0u);
}

TEST(CompareModes, GraphAgainstAsyncIsNotComparedButShown) {
  const auto base = device({op("a", timing(0.010, 1)), op("b", timing(0.010, 2, LaunchMode::Graph, 20))});
  // 50% "faster" and 50% "slower": neither may be reported as a speed change.
  const auto now = device({op("a", timing(0.005, 3, LaunchMode::Graph, 40)), op("b", timing(0.015, 4))});
  const auto rows = compare_results(base, now, {});
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows) {
    EXPECT_EQ(r.change, Change::TimingModeChanged) << r.id << ": " << r.detail;
    EXPECT_FALSE(r.regression()) << r.id;
    EXPECT_NE(r.detail.find("not compared"), std::string::npos) << r.detail;
    EXPECT_NE(r.detail.find("CUDA-graph replay (batch"), std::string::npos) << r.detail;
  }
  EXPECT_EQ(change_name(Change::TimingModeChanged), "timing-mode-changed");
  EXPECT_NE(rows[0].detail.find("by async launches in the baseline"), std::string::npos) << rows[0].detail;
  EXPECT_NE(rows[1].detail.find("by async launches now"), std::string::npos) << rows[1].detail;
}

TEST(CompareModes, ImageAndCorrectnessStillComeFirst) {
  auto wrong = op("a", timing(0.010, 2, LaunchMode::Graph, 20));
  wrong.correctness->passed = false;
  const auto rows = compare_results(device({op("a", timing(0.010, 1))}), device({wrong}), {});
  EXPECT_EQ(rows[0].change, Change::CorrectnessRegressed);
}

TEST(CompareModes, GraphAgainstGraphIsComparedAsUsual) {
  const auto base = device({op("a", timing(0.010, 1, LaunchMode::Graph, 20)), op("b", timing(0.010, 2, LaunchMode::Graph, 20))});
  const auto now = device({op("a", timing(0.0101, 3, LaunchMode::Graph, 20)), op("b", timing(0.013, 4, LaunchMode::Graph, 16))});
  const auto rows = compare_results(base, now, {});
  EXPECT_EQ(rows[0].change, Change::Same) << rows[0].detail;
  EXPECT_EQ(rows[1].change, Change::Slower) << rows[1].detail;
  EXPECT_NE(rows[1].detail.find("batch 20 -> 16"), std::string::npos) << rows[1].detail;
  // async and blocking are both single launches: compared as before.
  const auto blocking = compare_results(device({op("a", timing(0.010, 1))}), device({op("a", timing(0.010, 5, LaunchMode::Blocking))}), {});
  EXPECT_EQ(blocking[0].change, Change::Same) << blocking[0].detail;
}

TEST(BaselinePooling, RefusesRunsOfDifferentModes) {
  const auto async_run = device({op("a", timing(0.010, 1))});
  const auto graph_run = device({op("a", timing(0.008, 2, LaunchMode::Graph, 25))});
  try {
    (void)merge_runs({async_run, graph_run});
    ADD_FAILURE() << "pooled a graph run into an async baseline";
  } catch (const StoredFileError& e) {
    EXPECT_NE(std::string(e.what()).find("--cuda-graph"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("timed a differently (async in the first run, graph in run 2)"),
              std::string::npos)
        << e.what();
  }
  const auto pooled = merge_runs({graph_run, device({op("a", timing(0.008, 3, LaunchMode::Graph, 25))})});
  EXPECT_EQ(pooled.operators[0].timing->mode, LaunchMode::Graph);
  EXPECT_EQ(pooled.operators[0].timing->samples_ms.size(), 80u);
}

TEST(ConsoleFindings, GraphFallbackIsAFindingWithItsReason) {
  DeviceReport d;
  auto fell_back = op("elementwise/x/f16/N1", timing(0.010, 1));
  fell_back.timing->graph_fallback = "cudaStreamEndCapture: cudaErrorStreamCaptureInvalidated (901)";
  d.operators = {fell_back, op("elementwise/y/f16/N1", timing(0.010, 2, LaunchMode::Graph, 20))};
  const std::string findings = format_findings(d);
  EXPECT_NE(findings.find("1 operator(s): elementwise/x/f16/N1"), std::string::npos) << findings;
  EXPECT_NE(findings.find("not CUDA-graph replay: cudaStreamEndCapture"), std::string::npos) << findings;
  EXPECT_EQ(findings.find("elementwise/y"), std::string::npos) << findings;
}

}  // namespace
}  // namespace archbench
