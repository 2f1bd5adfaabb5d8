// The GPU suite's main: CUDA_LAUNCH_BLOCKING=1 must be in effect before CUDA initialises, so
// that every launch error is reported by the launch (and test) that caused it.
#include <gtest/gtest.h>

#include <cstdlib>

#include "harness/run/phases.hpp"
#include "harness/util/ctest_resources.hpp"

int main(int argc, char** argv) {
  // Under `ctest --resource-spec-file` each test gets one GPU (RESOURCE_GROUPS gpus:1): make it
  // the only visible device before CUDA initialises. Without a spec file nothing changes.
  if (auto visible = archbench::visible_devices_for_allocation(std::getenv("CTEST_RESOURCE_GROUP_0_GPUS"),
                                                               std::getenv("CUDA_VISIBLE_DEVICES"))) {
    setenv("CUDA_VISIBLE_DEVICES", visible->c_str(), 1);
  }
  archbench::enable_launch_blocking();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
