// PTX ISA <-> CUDA <-> driver table (docs/reference/compat.md, "PTX ISA, toolkit and driver") and the
// driver minimums ("Driver and runtime versions").
#include <gtest/gtest.h>

#include "harness/arch/cuda_versions.hpp"

namespace archbench::arch {
namespace {

TEST(CudaVersions, IsaOfEachToolkit) {
  EXPECT_EQ(ptx_isa_of_cuda({13000})->str(), "9.0");
  EXPECT_EQ(ptx_isa_of_cuda({12090})->str(), "8.8");
  EXPECT_EQ(ptx_isa_of_cuda({12080})->str(), "8.7");
  EXPECT_EQ(ptx_isa_of_cuda({12060})->str(), "8.5");
  EXPECT_EQ(ptx_isa_of_cuda({12000})->str(), "8.0");
  EXPECT_EQ(ptx_isa_of_cuda({13050})->str(), "9.5");  // newer than the table within 13.x
  EXPECT_FALSE(ptx_isa_of_cuda({11080}).has_value());
  EXPECT_FALSE(ptx_isa_of_cuda({0}).has_value());
  EXPECT_FALSE(ptx_isa_of_cuda({14000}).has_value());
}

TEST(CudaVersions, DriverNeededForIsa) {
  EXPECT_EQ(driver_needed_for({9, 2})->branch, "r595");
  EXPECT_EQ(driver_needed_for({9, 0})->branch, "r580");
  EXPECT_EQ(driver_needed_for({8, 7})->cuda.str(), "12.8");
  EXPECT_FALSE(driver_needed_for({9, 9}).has_value());
}

TEST(CudaVersions, RuntimeMajorNeedsDriver) {
  EXPECT_EQ(minimum_driver_branch_for_runtime(13), 580);
  EXPECT_EQ(minimum_driver_branch_for_runtime(12), 525);
  EXPECT_EQ(minimum_driver_branch_for_runtime(11), 450);
  EXPECT_EQ(CudaVersion{12080}.str(), "12.8");
  EXPECT_EQ(CudaVersion{0}.str(), "unknown");
}

}  // namespace
}  // namespace archbench::arch
