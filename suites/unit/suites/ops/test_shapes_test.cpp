// ARCHBENCH_TEST_SHAPES as the GPU suite reads it (suites/ops/test_shapes.hpp): the default is the
// full check, "check" drops the benchmark shape, and anything else is refused, not guessed.
#include <gtest/gtest.h>

#include "suites/ops/test_shapes.hpp"

namespace archbench {
namespace {

TEST(TestShapes, UnsetEmptyOrFullRunsTheBenchmarkShapeToo) {
  EXPECT_EQ(parse_test_shapes(nullptr), TestShapes::Full);
  EXPECT_EQ(parse_test_shapes(""), TestShapes::Full);
  EXPECT_EQ(parse_test_shapes("full"), TestShapes::Full);
}

TEST(TestShapes, CheckRunsTheCheckScaleOnly) { EXPECT_EQ(parse_test_shapes("check"), TestShapes::CheckOnly); }

TEST(TestShapes, AnythingElseIsRefused) {
  for (const char* bad : {"Check", "checks", "bench", "check ", "0", "1"}) {
    EXPECT_FALSE(parse_test_shapes(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace archbench
