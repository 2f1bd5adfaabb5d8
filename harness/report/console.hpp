// Human-readable report: a device header, one row per operator, then the causes and fixes.
#pragma once

#include <string>

#include "harness/result/result.hpp"

namespace archbench {

[[nodiscard]] std::string format_build_line(const BuildManifest& m);
[[nodiscard]] std::string format_device_header(const Environment& env, const DeviceReport& d, const BuildManifest& m);
[[nodiscard]] std::string format_operator_table(const DeviceReport& d);
[[nodiscard]] std::string format_findings(const DeviceReport& d);  // cause + fix of every non-sass row
// "paths:" and a line per family and dtype with several own paths (path_summary.hpp); empty without.
[[nodiscard]] std::string format_paths(const DeviceReport& d);
[[nodiscard]] std::string format_summary(const RunReport& r);

}  // namespace archbench
