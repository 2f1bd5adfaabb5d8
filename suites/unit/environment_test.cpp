// What a failed device count tells the user, for the driver errors seen in the field (no GPU needed).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <string>

#include "harness/device/environment.hpp"

namespace archbench {
namespace {

TEST(DeviceCountError, SaysWhatToDo) {
  const std::string no_driver = explain_device_count_error(cudaErrorInsufficientDriver, {0}, {13000});
  EXPECT_NE(no_driver.find("cudaErrorInsufficientDriver (35)"), std::string::npos) << no_driver;
  EXPECT_NE(no_driver.find("No NVIDIA driver"), std::string::npos) << no_driver;
  const std::string old_driver = explain_device_count_error(cudaErrorInsufficientDriver, {12080}, {13000});
  EXPECT_NE(old_driver.find("install driver r580"), std::string::npos) << old_driver;
  const std::string no_device = explain_device_count_error(cudaErrorNoDevice, {13000}, {13000});
  EXPECT_NE(no_device.find("CUDA_VISIBLE_DEVICES"), std::string::npos) << no_device;
  EXPECT_NE(no_device.find("(100)"), std::string::npos) << no_device;
  const std::string mismatch = explain_device_count_error(cudaErrorSystemDriverMismatch, {13000}, {13000});
  EXPECT_NE(mismatch.find("reload the nvidia kernel modules"), std::string::npos) << mismatch;
}

}  // namespace
}  // namespace archbench
