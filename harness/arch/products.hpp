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

// The architecture's name for a compute capability: "Ada" for 8.9, "Hopper" for 9.0; "" if unknown.
[[nodiscard]] std::string_view architecture_name(ComputeCapability cc);

struct DeviceSpec {
  std::string label;     // what the user wrote, or the fleet entry's label
  std::string given;     // what the user wrote (parse_device_spec's text)
  ComputeCapability cc;
  CudaVersion driver;    // unknown when not given
  std::string product;   // the product it names ("RTX 4090"), empty when given as a compute capability
  std::string products;  // every product of this CC: "H100, H200, GH200"
};

// Parses what people type for a device: a compute capability as "8.9", "89", "sm_89", "sm89",
// "compute_89" or "sm_90a"; a product name ("RTX 4090", "rtx4090", "NVIDIA GeForce RTX 4090",
// "V100", "H100", or only its number, "4090", when one product ends in it); each optionally
// @driver ("12.0@12080", "9.0@12.8", "H100@580"). Case, spaces, '-' and '_' do not matter. Throws
// std::invalid_argument with the accepted forms (and near product names) when it cannot.
[[nodiscard]] DeviceSpec parse_device_spec(std::string_view text);

// How a report names the device: "RTX 4090 (8.9, Ada)" for a product, "8.9 (Ada: L4, L40S, L40,
// ...)" for a compute capability.
[[nodiscard]] std::string describe_device(const DeviceSpec& d);

// A driver given as a CUDA version ("12.8", "12080") or a branch ("580", "r570").
[[nodiscard]] CudaVersion parse_driver(std::string_view text);

}  // namespace archbench::arch
