// The one phase runner of `archbench run` and the doctor, without a GPU: a stand-in worker (a
// shell script speaking the worker's line protocol) reports some operators and not others, and
// the runner must return one result per operator in operator order, never a silent blank.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/ops/registry.hpp"
#include "harness/result/result_json.hpp"
#include "tools/archbench/phase_runner.hpp"
#include "suites/unit/tools/archbench/stand_in_worker.hpp"

namespace archbench::cli {
namespace {

class PhaseRunner : public testing::Test {
 protected:
  // Reports every operator but the second (error "reported"), and exits 0 as if all were done.
  StandInWorker worker_{"phase-runner", [] { OperatorResult r; r.error = "reported"; return r; }(), R"sh(#!/bin/bash
dir="$(dirname "$0")"; ids="$3.ids"; out="$(python3 "$dir/request.py" "$3" "$ids")"; n=0
while read -r id; do
  n=$((n + 1))
  echo "{\"type\":\"start\",\"id\":\"$id\"}" >> "$out"
  [ "$n" -eq 2 ] && continue
  sed "s|__ID__|$id|" "$dir/result.json" >> "$out"
done < "$ids"
)sh"};

  PhaseOutcome run(Phase phase, const std::vector<const Operator*>& ops) {
    PhasePlan plan;
    plan.label = phase_name(phase);
    plan.ops = ops;
    plan.worker.task.phase = phase;
    plan.worker.executable = worker_.executable();
    std::FILE* sink = std::tmpfile();
    PhaseOutcome out;
    {
      RunProgress progress(sink, RunProgress::Style::Quiet, false);
      out = run_device_phase(plan, progress);
    }
    std::fclose(sink);
    return out;
  }
};

TEST_F(PhaseRunner, OneResultPerOperatorInOrderAndTheUnreportedOneSaysSo) {
  const auto ops = registry().select("elementwise/silu/*", {});
  ASSERT_EQ(ops.size(), 3u);
  for (const Phase phase : values_of(kPhases)) {
    const PhaseOutcome out = run(phase, ops);
    ASSERT_EQ(out.results.size(), ops.size());
    EXPECT_TRUE(out.failure.empty()) << out.failure;
    for (size_t i = 0; i < ops.size(); ++i) EXPECT_EQ(out.results[i].id, ops[i]->id());
    EXPECT_EQ(out.results[0].error, "reported");
    EXPECT_EQ(out.results[1].error, "not reported by the " + std::string(phase_name(phase)) + " worker");
    EXPECT_EQ(out.results[1].family, "elementwise") << "the operator's own record, with the reason";
    EXPECT_TRUE(out.results[1].failed());
    EXPECT_EQ(out.results[2].error, "reported");
  }
}

TEST(OperatorDeadline, CheckAllowsMoreThanTimeAndGrowsWithWork) {
  const auto small = registry().select("elementwise/timestep_embedding/f32/*", {});
  const auto large = registry().select("matmul/gemm_simt/f32/M4608_N12288_K3072", {});
  ASSERT_EQ(small.size(), 1u);
  ASSERT_EQ(large.size(), 1u);
  EXPECT_NEAR(operator_deadline_s(*small[0], Phase::Check, 0), 120.0, 0.01);
  EXPECT_NEAR(operator_deadline_s(*small[0], Phase::Time, 0), 60.0, 0.01);
  EXPECT_NEAR(operator_deadline_s(*small[0], Phase::Check, 300), 420.0, 0.01);
  EXPECT_NEAR(operator_deadline_s(*large[0], Phase::Time, 0), 60.0 + 100 * 347.9e9 / 10e12, 0.01);  // 100 x 348 GFLOP at 10 TFLOP/s
}

}  // namespace
}  // namespace archbench::cli
