// `archbench report --html`: one self-contained page per run file. Per device: the header and
// environment manifest, the regressions and failures first, a heat map of image verdicts
// (operators x dtypes), which own path ran (when the run recorded its choices), per-family bar
// charts of % of ceiling (the baseline's value marked when a baseline is given) and a roofline
// plot under the device's measured ceilings.
#pragma once

#include <map>
#include <string>

#include "harness/baseline/compare.hpp"
#include "harness/report/stored_run.hpp"

namespace archbench::html {

struct RunReportInputs {
  const StoredRun* run = nullptr;
  // By baseline_slot: each device its own (a runner's baseline is one GPU's); devices without one get no markers.
  std::map<std::string, DeviceResults> baselines;
  Thresholds thresholds;
};

// Which entry of RunReportInputs::baselines is a device's: its GPU UUID, else its device key.
[[nodiscard]] std::string baseline_slot(const StoredDevice& d);

[[nodiscard]] std::string run_report_page(const RunReportInputs& in);

// A colour per dtype, shared by the bar charts and the roofline.
[[nodiscard]] std::string dtype_color(DType dtype);

}  // namespace archbench::html
