// What a failed cudaGetDeviceCount means and what to do about it: one table, rendered both as
// the one-line message of `archbench run` and as the doctor's [device-count] finding.
#pragma once

#include <string>
#include <vector>

#include "harness/arch/cuda_versions.hpp"
#include "harness/device/field_cause.hpp"

namespace archbench {

struct DriverErrorExplanation {
  std::string cause;              // lower case, no final period
  std::string fix;
  doctor::FieldCauses field_causes;  // docs/reference/field-causes.md, "The causes"
};

// `driver` unknown (0) means no libcuda could be loaded at all.
[[nodiscard]] DriverErrorExplanation explain_driver_error(int code, arch::CudaVersion driver, arch::CudaVersion runtime);

}  // namespace archbench
