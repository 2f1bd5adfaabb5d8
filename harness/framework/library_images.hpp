// Which of the libraries an op loaded has no image for the device: the file a "no kernel image is
// available" came from, judged by the rules `scan` and `inspect` use (binary/device_coverage).
#pragma once

#include <string>
#include <vector>

#include "harness/arch/target.hpp"

namespace archbench::framework {

// One line per library with device code that cannot run on `cc` ("/x/ext.so: missing: built for
// SASS sm_80 and PTX none; ..."); libraries that cannot be read or hold no device code are left out.
[[nodiscard]] std::vector<std::string> libraries_without_image(const std::vector<std::string>& libraries,
                                                               arch::ComputeCapability cc);

}  // namespace archbench::framework
