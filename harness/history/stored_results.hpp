// The copy of a run's device results that the history store keeps beside its medians, so that a
// baseline can be rebuilt from the history (every sample, the build, the device, the timer floor:
// what `baseline update` pools). Kept as the baseline file's JSON (baseline_json), compressed with
// zstd: a full 223-operator H200 run is about 540 kB of JSON and 80 kB stored.
#pragma once

#include <string>

#include "harness/baseline/baseline_file.hpp"

namespace archbench::history {

[[nodiscard]] std::string compress_results(const DeviceResults& d);
// Throws HistoryError naming `where` (the store and run) for bytes that are not such a copy.
[[nodiscard]] DeviceResults decompress_results(const std::string& bytes, const std::string& where);

}  // namespace archbench::history
