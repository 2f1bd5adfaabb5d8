// The GPU suite's main: CUDA_LAUNCH_BLOCKING=1 must be in effect before CUDA initialises, so
// that every launch error is reported by the launch (and test) that caused it.
// Exit codes: 0 every selected test passed (some may have skipped); 1 a test failed, or the
// filter selected no test (a typo must not pass; an empty gtest shard is no error); 77 every selected test skipped (no GPU, or
// none runs on this device): ctest's SKIP_RETURN_CODE, so a group of skips is reported as
// skipped, never as passed (suites/ops/discover_ops_tests.cmake).
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "harness/run/phases.hpp"
#include "harness/util/ctest_resources.hpp"

namespace {
constexpr int kAllSkippedExitCode = 77;
}

int main(int argc, char** argv) {
  // Under `ctest --resource-spec-file` each test gets one GPU (RESOURCE_GROUPS gpus:1): make it
  // the only visible device before CUDA initialises. Without a spec file nothing changes.
  if (auto visible = archbench::visible_devices_for_allocation(std::getenv("CTEST_RESOURCE_GROUP_0_GPUS"),
                                                               std::getenv("CUDA_VISIBLE_DEVICES"))) {
    setenv("CUDA_VISIBLE_DEVICES", visible->c_str(), 1);
  }
  archbench::enable_launch_blocking();
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  const testing::UnitTest& run = *testing::UnitTest::GetInstance();
  // A gtest shard (GTEST_TOTAL_SHARDS) may hold no test when there are fewer tests than shards.
  const bool sharded = std::getenv("GTEST_TOTAL_SHARDS") != nullptr;
  if (rc == 0 && run.test_to_run_count() == 0 && !sharded) {
    std::cerr << "archbench_ops_tests: the filter selected no test (--gtest_list_tests shows the names)\n";
    return 1;
  }
  if (rc == 0 && run.successful_test_count() == 0 && run.skipped_test_count() > 0) return kAllSkippedExitCode;
  return rc;
}
