// The slowdown knob's plan, on the H200's numbers: the spin after each launch cost about 2 us
// by itself (a "5%" slowdown of the 9.4 us SiLU measured +25-30% before the plan counted it).
#include <gtest/gtest.h>

#include "harness/run/spin_plan.hpp"

namespace archbench {
namespace {

constexpr double kOverheadMs = 0.0022;  // a zero-cycle spin after a kernel, H200
constexpr double kMhz = 1980;

TEST(SpinPlan, TheSpinsFixedCostCountsTowardTheDelay) {
  // 20% of a 94 us kernel: 18.8 us in all, of which the spin waits 16.6 us.
  const SpinPlan p = plan_spin_delay(0.20, 0.094, kOverheadMs, kMhz);
  EXPECT_DOUBLE_EQ(p.delay_ms, 0.20 * 0.094);
  EXPECT_NEAR(static_cast<double>(p.cycles), (0.0188 - kOverheadMs) * 1e-3 * kMhz * 1e6, 1.0);
}

TEST(SpinPlan, AnOperatorTooShortForTheFractionGetsTheFixedCostAloneAndSaysSo) {
  // 5% of a 9.4 us kernel is 0.47 us: less than the spin costs with no wait at all.
  const SpinPlan p = plan_spin_delay(0.05, 0.0094, kOverheadMs, kMhz);
  EXPECT_EQ(p.cycles, 0);
  EXPECT_DOUBLE_EQ(p.delay_ms, kOverheadMs);  // 23% of the kernel, recorded as such
}

TEST(SpinPlan, ALongOperatorIsSlowedByTheFractionAsAsked) {
  const SpinPlan p = plan_spin_delay(0.05, 3.4, kOverheadMs, kMhz);
  EXPECT_DOUBLE_EQ(p.delay_ms, 0.17);
  EXPECT_NEAR(static_cast<double>(p.cycles), (0.17 - kOverheadMs) * 1e-3 * kMhz * 1e6, 1.0);
}

TEST(SpinPlan, ANegativeOverheadMeasurementCountsAsNone) {
  const SpinPlan p = plan_spin_delay(0.10, 0.1, -0.0005, kMhz);
  EXPECT_DOUBLE_EQ(p.delay_ms, 0.01);
  EXPECT_NEAR(static_cast<double>(p.cycles), 0.01 * 1e-3 * kMhz * 1e6, 1.0);
}

}  // namespace
}  // namespace archbench
