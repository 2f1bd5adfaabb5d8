// The ctest resource spec archbench resources writes, and the GPU a test is given from
// CTEST_RESOURCE_GROUP_0_GPUS (harness/util/ctest_resources.hpp).
#include <gtest/gtest.h>

#include "harness/util/ctest_resources.hpp"

namespace archbench {
namespace {

TEST(CtestResources, SpecFormat) {
  const auto j = ctest_resource_spec(3, 2);
  EXPECT_EQ(j.at("version").at("major"), 1);
  EXPECT_EQ(j.at("version").at("minor"), 0);
  ASSERT_EQ(j.at("local").size(), 1u);
  const auto& gpus = j.at("local")[0].at("gpus");
  ASSERT_EQ(gpus.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(gpus[i].at("id"), std::to_string(i));  // ids are strings of [a-z0-9_]
    EXPECT_EQ(gpus[i].at("slots"), 2);
  }
  EXPECT_TRUE(ctest_resource_spec(0, 1).at("local")[0].at("gpus").empty());
}

TEST(CtestResources, AllocationToVisibleDevices) {
  EXPECT_EQ(visible_devices_for_allocation("id:1,slots:1", nullptr), "1");
  EXPECT_EQ(visible_devices_for_allocation("id:12,slots:1", ""), "12");
  // An index into the parent's list: UUIDs and MIG names pass through.
  EXPECT_EQ(visible_devices_for_allocation("id:1,slots:1", "GPU-aaa,GPU-bbb"), "GPU-bbb");
  EXPECT_EQ(visible_devices_for_allocation("id:0,slots:1", "3,1"), "3");
  EXPECT_EQ(visible_devices_for_allocation("id:2,slots:1", "3,1"), std::nullopt);
  EXPECT_EQ(visible_devices_for_allocation(nullptr, "0"), std::nullopt);
  EXPECT_EQ(visible_devices_for_allocation("slots:1", nullptr), std::nullopt);
  EXPECT_EQ(visible_devices_for_allocation("id:x,slots:1", nullptr), std::nullopt);
}

}  // namespace
}  // namespace archbench
