// The test-only slowdown knob's selection (ARCHBENCH_TEST_SLOWDOWN="<filter>=<fraction>"), without
// a GPU: which operators it slows, and the error for a knob that is not <glob>=<fraction>.
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

#include "harness/run/test_slowdown.hpp"

namespace archbench {
namespace {

class TestSlowdownKnob : public testing::Test {
 protected:
  void TearDown() override { unsetenv("ARCHBENCH_TEST_SLOWDOWN"); }
};

TEST_F(TestSlowdownKnob, UnsetMeansNoSlowdown) {
  unsetenv("ARCHBENCH_TEST_SLOWDOWN");
  const TestSlowdown s = TestSlowdown::for_operator("matmul/gemm_tc/f16/M4096_N4096_K4096");
  EXPECT_FALSE(s.active());
  EXPECT_EQ(s.fraction(), 0.0);
  TimingResult t;
  t.injected_slowdown = 1;
  s.record(t);
  EXPECT_EQ(t.injected_slowdown, 0.0);
  EXPECT_EQ(t.injected_delay_ms, 0.0);
}

TEST_F(TestSlowdownKnob, SlowsOnlyWhatTheFilterMatches) {
  setenv("ARCHBENCH_TEST_SLOWDOWN", "matmul/*,*silu*=0.05", 1);
  EXPECT_DOUBLE_EQ(TestSlowdown::for_operator("matmul/gemm_tc/f16/M4096_N4096_K4096").fraction(), 0.05);
  EXPECT_DOUBLE_EQ(TestSlowdown::for_operator("elementwise/silu/f32/B2_C320_H64_W64").fraction(), 0.05);
  EXPECT_FALSE(TestSlowdown::for_operator("conv/conv_tc/f16/B2_C320_H64_W64_K320_3x3_s1").active());
}

TEST_F(TestSlowdownKnob, AKnobWithoutAFractionIsAnError) {
  setenv("ARCHBENCH_TEST_SLOWDOWN", "matmul/*", 1);
  EXPECT_THROW((void)TestSlowdown::for_operator("matmul/gemm_tc/f16/M4096_N4096_K4096"), std::invalid_argument);
}

}  // namespace
}  // namespace archbench
