// The GPU suite's main: CUDA_LAUNCH_BLOCKING=1 must be in effect before CUDA initialises, so
// that every launch error is reported by the launch (and test) that caused it.
#include <gtest/gtest.h>

#include "harness/run/phases.hpp"

int main(int argc, char** argv) {
  archbench::enable_launch_blocking();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
