// Device specs for predictions: compute capabilities, drivers, product names (docs/reference/compat.md,
// "Driver and runtime versions").
#include <gtest/gtest.h>

#include <initializer_list>
#include <stdexcept>
#include <string>

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

TEST(DeviceSpec, WhatPeopleType) {
  struct Case {
    const char* text;
    ComputeCapability cc;
    const char* product;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"sm_90", {9, 0}, ""}, {"sm90", {9, 0}, ""}, {"SM_90", {9, 0}, ""}, {"90", {9, 0}, ""}, {"9.0", {9, 0}, ""},
           {"compute_86", {8, 6}, ""}, {"sm_90a", {9, 0}, ""}, {"sm_100f", {10, 0}, ""}, {"120", {12, 0}, ""},
           {"RTX 4090", {8, 9}, "RTX 4090"}, {"rtx 4090", {8, 9}, "RTX 4090"}, {"4090", {8, 9}, "RTX 4090"},
           {"NVIDIA GeForce RTX 4090", {8, 9}, "RTX 4090"}, {"rtx5090", {12, 0}, "RTX 5090"},
           {" RTX  5090 ", {12, 0}, "RTX 5090"}, {"rtx-5090", {12, 0}, "RTX 5090"}, {"5090", {12, 0}, "RTX 5090"},
           {"V100", {7, 0}, "V100"}, {"Tesla V100-SXM2-16GB", {7, 0}, "V100"}, {"h100", {9, 0}, "H100"},
           {"NVIDIA H100 80GB HBM3", {9, 0}, "H100"}, {"a6000", {8, 6}, "RTX A6000"},
           {"RTX PRO 6000", {12, 0}, "RTX PRO 6000 Blackwell"}, {"Jetson AGX Xavier", {7, 2}, "Jetson AGX Xavier"},
           {"GTX 1080 Ti", {6, 1}, "GTX 1080"}, {"RTX 3050", {8, 6}, "RTX 30"}}) {
    const DeviceSpec d = parse_device_spec(c.text);
    EXPECT_EQ(d.cc, c.cc) << c.text;
    EXPECT_EQ(d.product, c.product) << c.text;
    EXPECT_EQ(d.given, c.text);
  }
  EXPECT_EQ(parse_device_spec("4090@580").driver.value, 13000);
  EXPECT_EQ(parse_device_spec("sm_120@12.8").cc, (ComputeCapability{12, 0}));
}

TEST(DeviceSpec, ShowsTheRightProductFamily) {
  // Not "[L4, L40S, L40, ...]" for an RTX 4090.
  EXPECT_EQ(describe_device(parse_device_spec("RTX 4090")), "RTX 4090 (8.9, Ada)");
  EXPECT_EQ(describe_device(parse_device_spec("4090")), "RTX 4090 (8.9, Ada)");
  EXPECT_EQ(describe_device(parse_device_spec("V100")), "V100 (7.0, Volta)");
  EXPECT_EQ(describe_device(parse_device_spec("rtx5090")), "RTX 5090 (12.0, Blackwell)");
  EXPECT_EQ(describe_device(parse_device_spec("9.0")), "9.0 (Hopper: H100, H200, GH200, ...)");
  EXPECT_EQ(describe_device(parse_device_spec("sm_75")), "7.5 (Turing: T4, Quadro RTX 8000, Quadro RTX 6000, ...)");
  EXPECT_EQ(describe_device(parse_device_spec("11.0")), "11.0 (Blackwell: Jetson T5000, Jetson T4000, Jetson Thor)");
  EXPECT_EQ(describe_device(parse_device_spec("13.0")), "13.0");
  EXPECT_EQ(architecture_name({8, 9}), "Ada");
  EXPECT_EQ(architecture_name({8, 7}), "Ampere");
  EXPECT_EQ(architecture_name({7, 2}), "Volta");
}

TEST(DeviceSpec, AmbiguousAndMistypedNamesAreNotGuessed) {
  try {
    (void)parse_device_spec("6000");
    ADD_FAILURE() << "accepted '6000'";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Quadro RTX 6000 (7.5) or RTX A6000 (8.6)"), std::string::npos) << what;
  }
  EXPECT_THROW((void)parse_device_spec("H10"), std::invalid_argument);  // H100? H20? A10? not a guess
  try {
    (void)parse_device_spec("Jetsn Orin");
    ADD_FAILURE() << "accepted 'Jetsn Orin'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("(did you mean Jetson Orin?)"), std::string::npos) << e.what();
  }
}

TEST(DeviceSpec, UnknownDeviceListsProductsByComputeCapability) {
  try {
    (void)parse_device_spec("Voodoo 5");
    FAIL() << "accepted 'Voodoo 5'";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown device 'Voodoo 5': give a compute capability (8.9, 89 or sm_89)"), std::string::npos)
        << what;
    EXPECT_NE(what.find("\n  8.9 Ada: RTX 4090, "), std::string::npos) << what;
    EXPECT_NE(what.find("\n  7.0 Volta: V100, "), std::string::npos) << what;
  }
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
