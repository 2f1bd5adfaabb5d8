// Device specs for predictions without the device: a compute capability ("8.9"), optionally with
// the driver's CUDA version ("12.0@12080", "9.0@12.8"), or a product name from NVIDIA's list
// ("RTX 5090", "H100", "Jetson Orin", "L4"; docs/reference/compat.md, "Driver and runtime versions").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/arch/cuda_versions.hpp"
#include "harness/arch/target.hpp"

namespace archbench::arch {

struct Product {
  std::string_view name;      // as NVIDIA writes it
  ComputeCapability cc;
};

// The products table (versioned data; matched case-insensitively, ignoring spaces and dashes,
// and by prefix for families such as "RTX 50").
[[nodiscard]] const std::vector<Product>& products();
[[nodiscard]] std::vector<std::string_view> products_for(ComputeCapability cc);

struct DeviceSpec {
  std::string label;     // what the user wrote, or the fleet entry's label
  ComputeCapability cc;
  CudaVersion driver;    // unknown when not given
  std::string products;  // "H100, H200, GH200" for the report
};

// Parses "8.9", "12.0@12080", "9.0@12.8", "H100", "RTX 5090@13000". Throws std::invalid_argument
// with the accepted forms and the product names when it cannot.
[[nodiscard]] DeviceSpec parse_device_spec(std::string_view text);

// A driver given as a CUDA version ("12.8", "12080") or a branch ("580", "r570").
[[nodiscard]] CudaVersion parse_driver(std::string_view text);

}  // namespace archbench::arch
