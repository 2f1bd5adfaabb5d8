// Device specs for predictions: compute capabilities, drivers, product names (docs/reference/compat.md,
// "Driver and runtime versions").
#include <gtest/gtest.h>

#include <stdexcept>

#include "harness/arch/products.hpp"

namespace archbench::arch {
namespace {

TEST(DeviceSpec, ComputeCapabilityWithAndWithoutDriver) {
  EXPECT_EQ(parse_device_spec("8.9").cc, (ComputeCapability{8, 9}));
  EXPECT_FALSE(parse_device_spec("8.9").driver.known());
  EXPECT_EQ(parse_device_spec("12.0@12080").driver.value, 12080);
  EXPECT_EQ(parse_device_spec("9.0@12.8").driver.value, 12080);
  EXPECT_EQ(parse_device_spec("9.0@580").driver.value, 13000);
  EXPECT_EQ(parse_device_spec("9.0@r570").driver.value, 12080);
}

TEST(DeviceSpec, ProductNames) {
  EXPECT_EQ(parse_device_spec("RTX 5090").cc, (ComputeCapability{12, 0}));
  EXPECT_EQ(parse_device_spec("rtx5090").cc, (ComputeCapability{12, 0}));
  EXPECT_EQ(parse_device_spec("NVIDIA GeForce RTX 4090").cc, (ComputeCapability{8, 9}));
  EXPECT_EQ(parse_device_spec("H100").cc, (ComputeCapability{9, 0}));
  EXPECT_EQ(parse_device_spec("NVIDIA H200").cc, (ComputeCapability{9, 0}));
  EXPECT_EQ(parse_device_spec("Jetson Orin").cc, (ComputeCapability{8, 7}));
  EXPECT_EQ(parse_device_spec("L4").cc, (ComputeCapability{8, 9}));
  EXPECT_EQ(parse_device_spec("L40S").cc, (ComputeCapability{8, 9}));
  EXPECT_EQ(parse_device_spec("A100").cc, (ComputeCapability{8, 0}));
  EXPECT_EQ(parse_device_spec("B300").cc, (ComputeCapability{10, 3}));
  EXPECT_EQ(parse_device_spec("DGX Spark").cc, (ComputeCapability{12, 1}));
  EXPECT_EQ(parse_device_spec("Jetson Thor@13000").cc, (ComputeCapability{11, 0}));
  EXPECT_NE(parse_device_spec("9.0").products.find("H200"), std::string::npos);
}

TEST(DeviceSpec, RejectsWithTheAcceptedForms) {
  for (const char* bad : {"", "9", "9.", ".9", "9.0.1", "Voodoo 5", "9.0@", "9.0@tomorrow", "8.9@12"}) {
    try {
      (void)parse_device_spec(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_TRUE(what.find("compute capability") != std::string::npos || what.find("driver") != std::string::npos) << what;
    }
  }
}

TEST(DriverSpec, BranchesMapToTheirCudaVersion) {
  EXPECT_EQ(parse_driver("580").str(), "13.0");
  EXPECT_EQ(parse_driver("575").str(), "12.9");
  EXPECT_EQ(parse_driver("560").str(), "12.6");
  EXPECT_EQ(parse_driver("12.4").str(), "12.4");
  EXPECT_EQ(parse_driver("13000").str(), "13.0");
  EXPECT_THROW((void)parse_driver("200"), std::invalid_argument);
}

}  // namespace
}  // namespace archbench::arch
