// The wait out of the power cap: what it does where NVML cannot say (this machine, CI), and that its
// outcome reaches the run JSON. On a GPU it runs before every timed operator (timer.gpu times through it).
#include "harness/run/power_settle.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/result/result_json.hpp"
#include "harness/result/timing_summary.hpp"

namespace archbench {
namespace {

TEST(PowerSettle, NeverWaitsWhereNvmlCannotReadTheDevice) {
  // No driver here, or a UUID NVML does not know: nothing to wait for, and not reported as capped.
  for (int i = 0; i < 3; ++i) {
    const PowerSettle s = settle_power("GPU-00000000-0000-0000-0000-000000000000", 1.0);
    EXPECT_FALSE(s.capped);
    EXPECT_LT(s.waited_ms, 50.0);
  }
}

TEST(PowerSettle, TheWaitIsInTheRunJsonOnlyWhenThereWasOne) {
  TimingResult t;
  t.samples_ms = {1.0, 2.0, 3.0};
  summarize(t);
  EXPECT_FALSE(nlohmann::json(t).contains("settle_ms")) << "a run that did not wait reads as one from before the rule";
  t.settle_ms = 412.5;
  t.settle_capped = true;
  const nlohmann::json j = t;
  EXPECT_EQ(j.at("settle_ms"), 412.5);
  EXPECT_EQ(j.at("settle_capped"), true);
  const auto back = j.get<TimingResult>();
  EXPECT_DOUBLE_EQ(back.settle_ms, 412.5);
  EXPECT_TRUE(back.settle_capped);
}

}  // namespace
}  // namespace archbench
