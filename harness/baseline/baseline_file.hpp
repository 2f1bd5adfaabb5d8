// Stored results: reading run results (schema archbench.run) and per-device baselines
// (schema archbench.baseline), with validation, and writing baselines atomically.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/result/result.hpp"

namespace archbench {

class StoredFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kBaselineSchemaVersion = 1;
inline constexpr size_t kMaxStoredFileBytes = size_t{256} << 20;  // results with every sample stay far below

// "nvidia-h200-cc90-140g": product name, compute capability and memory size. The UUID is kept as
// provenance only: identical machines have different UUIDs.
[[nodiscard]] std::string device_key(const std::string& name, const std::string& cc, size_t memory_bytes);

// One device's results as stored: what a baseline holds, and what a run report holds per device.
struct DeviceResults {
  std::string key;
  DeviceInfo device;      // name, CC, memory, UUID, ... as the run recorded it
  BuildManifest build;    // the build it ran
  std::vector<OperatorResult> operators;
  // The timer's floor (timer_floor.hpp) in ms: a run's, or for a baseline the median of its runs'
  // (each kept in run_timer_floors_ms). Absent from files written before archbench measured it.
  std::optional<double> timer_floor_ms;
  std::vector<double> run_timer_floors_ms;
  // A run's operator selection (run --filter / --dtype), when the file records one.
  std::optional<Selection> selection;
};

// Reads a run report (`archbench run --json`) and returns its devices. Throws StoredFileError
// naming the file and what is wrong (unreadable, too large, not JSON, wrong schema or version,
// missing fields).
[[nodiscard]] std::vector<DeviceResults> load_run_results(const std::string& path);

// Pools several runs of one device into one baseline: per operator the first run's verdicts,
// every run's samples, and each run's median in run_medians_ms. Throws StoredFileError when the
// runs are of different devices or builds.
[[nodiscard]] DeviceResults merge_runs(const std::vector<DeviceResults>& runs);

[[nodiscard]] DeviceResults load_baseline(const std::string& path);
void save_baseline(const std::string& path, const DeviceResults& d);
// A baseline as its file holds it (schema archbench.baseline), and back; `where` names the source in
// errors. The history store keeps each run's device results in this form.
[[nodiscard]] nlohmann::json baseline_json(const DeviceResults& d);
[[nodiscard]] DeviceResults baseline_from_json(const nlohmann::json& j, const std::string& where);

// Where a directory of baselines keeps the one of a device key: `<dir>/<device-key>.json`; a runner's
// own, made from its history (`baseline update --from-history`): `<dir>/<device-key>@<GPU UUID>.json`.
// The naming rules that update, compare, report and merge share.
[[nodiscard]] std::string baseline_path_in(const std::string& dir, const std::string& device_key);
[[nodiscard]] std::string runner_baseline_path_in(const std::string& dir, const std::string& device_key,
                                                  const std::string& uuid);
// The baseline a device of a run is judged against: its runner's own when the directory has one,
// else its device model's.
[[nodiscard]] std::string baseline_for_device_in(const std::string& dir, const std::string& device_key,
                                                 const std::string& uuid);

// The parts of two build manifests that decide which images exist: arch list and targets, nvcc.
[[nodiscard]] std::string build_difference(const BuildManifest& a, const BuildManifest& b);

}  // namespace archbench
