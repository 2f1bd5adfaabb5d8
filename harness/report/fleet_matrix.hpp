// The fleet matrix: device x operator (x dtype, part of the operator id). Per cell the image
// verdict, correctness, % of ceiling and the change against that device's baseline when there is
// one. Built by `archbench merge` from the per-device run files of a nightly, written as JSON
// (schema "archbench.fleet" v1), Markdown (the CI job summary) and HTML.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/baseline/compare.hpp"
#include "harness/report/stored_run.hpp"
#include "harness/result/operator_verdict.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench {

inline constexpr int kFleetSchemaVersion = 1;

// What the check said of a cell's operator; its name is the fleet JSON's "correctness".
enum class CellCheck { NotChecked, Ok, Wrong };
inline constexpr auto kCellChecks = enum_names<CellCheck>({
    {CellCheck::NotChecked, "not-checked"},
    {CellCheck::Ok, "ok"},
    {CellCheck::Wrong, "wrong"},
});

struct FleetCell {
  ImageOutcome image = ImageOutcome::NotProbed;  // as the run reported it (NotProbed: absent)
  std::string image_label;
  OperatorVerdict verdict;                // operator_verdict (harness/result/result.hpp), or Absent
  CellCheck check = CellCheck::NotChecked;
  std::optional<double> rel_error;
  std::optional<double> pct_of_ceiling, median_ms, tflops;
  bool failed = false;
  std::string problem;                    // what failed, in words (empty when nothing did)
  std::optional<Change> change;           // vs the baseline; nullopt = no baseline for this device
  bool regression = false;
  double effect = 0;                      // new median / baseline median - 1
  std::string change_detail;
};

struct FleetDevice {
  std::string column;  // unique per matrix: the device key, suffixed when one key comes twice
  std::string key, name, cc, source;
  BuildManifest build;
  std::string baseline;  // the baseline file compared with; empty = none
  size_t operators = 0, failed = 0, regressions = 0;
  std::map<std::string, size_t> verdicts;  // verdict -> count
};

struct FleetRow {
  std::string id, family, name;
  DType dtype = DType::F32;
  std::string shape;
  Impl impl = Impl::Own;
  std::vector<std::optional<FleetCell>> cells;  // one per device; nullopt = not in that device's results
  [[nodiscard]] bool any_problem() const;
};

struct FleetMatrix {
  std::vector<FleetDevice> devices;
  std::vector<FleetRow> rows;  // in first-seen order
};

struct FleetBaseline {
  std::string path;
  DeviceResults results;
};

// `baselines` by device key (devices without an entry get no change column).
[[nodiscard]] FleetMatrix build_fleet_matrix(const std::vector<StoredRun>& runs, const std::map<std::string, FleetBaseline>& baselines,
                                             const Thresholds& thresholds);

[[nodiscard]] nlohmann::json fleet_to_json(const FleetMatrix& m);

}  // namespace archbench
