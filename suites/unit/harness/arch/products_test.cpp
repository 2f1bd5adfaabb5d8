// Device specs for predictions: compute capabilities, drivers, product names (docs/reference/compat.md,
// "Driver and runtime versions").
#include <gtest/gtest.h>

#include <initializer_list>
#include <stdexcept>
#include <string>

#include "harness/arch/products.hpp"

namespace archbench::arch {
namespace {

// What parse_device_spec says when it rejects `text`; a test failure (and "") when it accepts it.
std::string rejection_of(const char* text) {
  try {
    (void)parse_device_spec(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted '" << text << "'";
  return {};
}

TEST(DeviceSpec, ComputeCapabilityWithAndWithoutDriver) {
  EXPECT_EQ(parse_device_spec("8.9").cc, (ComputeCapability{8, 9}));
  EXPECT_FALSE(parse_device_spec("8.9").driver.known());
  EXPECT_EQ(parse_device_spec("12.0@12080").driver.value, 12080);
  EXPECT_EQ(parse_device_spec("9.0@12.8").driver.value, 12080);
  EXPECT_EQ(parse_device_spec("9.0@580").driver.value, 13000);
  EXPECT_EQ(parse_device_spec("9.0@r570").driver.value, 12080);
}

TEST(DeviceSpec, ThorIs101UnderACuda12DriverAnd110From13) {
  EXPECT_EQ(parse_device_spec("Jetson Thor").cc, (ComputeCapability{11, 0}));
  EXPECT_EQ(parse_device_spec("Jetson Thor@580").cc, (ComputeCapability{11, 0}));
  EXPECT_EQ(parse_device_spec("Jetson Thor@12.9").cc, (ComputeCapability{10, 1}));
  EXPECT_EQ(parse_device_spec("Jetson T5000@r570").cc, (ComputeCapability{10, 1}));
  EXPECT_NE(describe_device(parse_device_spec("10.1")).find("Jetson Thor"), std::string::npos);
}

TEST(DeviceSpec, ProductNames) {
  struct Case {
    const char* text;
    ComputeCapability cc;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"RTX 5090", {12, 0}}, {"rtx5090", {12, 0}}, {"NVIDIA GeForce RTX 4090", {8, 9}}, {"H100", {9, 0}},
           {"NVIDIA H200", {9, 0}}, {"Jetson Orin", {8, 7}}, {"L4", {8, 9}}, {"L40S", {8, 9}}, {"A100", {8, 0}},
           {"B300", {10, 3}}, {"DGX Spark", {12, 1}}, {"Jetson Thor@13000", {11, 0}}}) {
    EXPECT_EQ(parse_device_spec(c.text).cc, c.cc) << c.text;
  }
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
  const std::string six_thousand = rejection_of("6000");
  EXPECT_NE(six_thousand.find("Quadro RTX 6000 (7.5) or RTX A6000 (8.6)"), std::string::npos) << six_thousand;
  EXPECT_THROW((void)parse_device_spec("H10"), std::invalid_argument);  // H100? H20? A10? not a guess
  const std::string misspelt = rejection_of("Jetsn Orin");
  EXPECT_NE(misspelt.find("(did you mean Jetson Orin?)"), std::string::npos) << misspelt;
}

TEST(DeviceSpec, UnknownDeviceListsProductsByComputeCapability) {
  const std::string what = rejection_of("Voodoo 5");
  EXPECT_NE(what.find("unknown device 'Voodoo 5': give a compute capability (8.9, 89 or sm_89)"), std::string::npos)
      << what;
  EXPECT_NE(what.find("\n  8.9 Ada: RTX 4090, "), std::string::npos) << what;
  EXPECT_NE(what.find("\n  7.0 Volta: V100, "), std::string::npos) << what;
}

TEST(DeviceSpec, RejectsWithTheAcceptedForms) {
  for (const char* bad : {"", "9", "9.", ".9", "9.0.1", "Voodoo 5", "9.0@", "9.0@tomorrow", "8.9@12"}) {
    const std::string what = rejection_of(bad);
    EXPECT_TRUE(what.find("compute capability") != std::string::npos || what.find("driver") != std::string::npos) << what;
  }
}

TEST(DriverSpec, BranchesMapToTheirCudaVersion) {
  EXPECT_EQ(parse_driver("580").str(), "13.0");
  EXPECT_EQ(parse_driver("575").str(), "12.9");
  EXPECT_EQ(parse_driver("560").str(), "12.6");
  EXPECT_EQ(parse_driver("12.4").str(), "12.4");
  EXPECT_EQ(parse_driver("13000").str(), "13.0");
  EXPECT_THROW((void)parse_driver("5800"), std::invalid_argument);  // a typo of 580, not a newer driver
  EXPECT_THROW((void)parse_driver("1000"), std::invalid_argument);
  EXPECT_THROW((void)parse_driver("200"), std::invalid_argument);
}

}  // namespace
}  // namespace archbench::arch
