// Devices to predict for: --device SPEC (repeatable), --driver, and --fleet FILE.
// Fleet file (JSON): {"devices": [{"label": "runner-a100", "device": "A100", "driver": "12.8"},
//                                 {"label": "orin", "cc": "8.7", "driver": "r540"}]}
// "device" is a compute capability or a product name; "driver" is optional.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/arch/products.hpp"

namespace archbench::cli {

// Throws UsageError (selection.hpp) naming what could not be read.
[[nodiscard]] std::vector<arch::DeviceSpec> read_fleet_file(const std::string& path);
[[nodiscard]] std::vector<arch::DeviceSpec> device_specs(const std::vector<std::string>& specs, const std::string& driver,
                                                         const std::string& fleet_path);

// device_specs for `archbench COMMAND`: nullopt, with "archbench COMMAND: <why>" on stderr, for a
// usage error (the caller then exits with kUsage).
[[nodiscard]] std::optional<std::vector<arch::DeviceSpec>> device_specs_or_explain(
    const char* command, const std::vector<std::string>& specs, const std::string& driver, const std::string& fleet_path);

}  // namespace archbench::cli
