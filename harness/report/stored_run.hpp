// A run report as stored by `archbench run --json`, read back with everything the report and
// merge writers need: per device the validated results (as the baseline code reads them) plus
// the measured ceilings, and the build manifest and environment as written.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/baseline/baseline_file.hpp"
#include "harness/result/result.hpp"

namespace archbench {

struct StoredDevice {
  DeviceResults results;
  std::optional<Ceilings> ceilings;
  std::vector<PathChoice> paths;  // empty in files written before the run recorded its path choices
};

struct StoredRun {
  std::string path;
  BuildManifest build;
  Environment environment;
  std::vector<StoredDevice> devices;
};

// Throws StoredFileError naming the file and what is wrong (as load_run_results does).
[[nodiscard]] StoredRun load_stored_run(const std::string& path);

}  // namespace archbench
