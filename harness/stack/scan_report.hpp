// `archbench scan`'s outputs: the console summary (worst first, within 120 columns), Markdown for
// CI job summaries, and JSON (schema archbench.scan v1). Renderers only: the verdicts are made in
// judgement.cpp.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/stack/inventory.hpp"
#include "harness/stack/judgement.hpp"

namespace archbench::stack {

inline constexpr int kScanSchemaVersion = 1;

struct ScanReport {
  const Inventory* inventory = nullptr;
  std::vector<DeviceJudgement> devices;
  double seconds = 0;
  bool show_files = false;    // --files: every file of every package
  bool show_kernels = false;  // --kernels: every kernel that has no image
};

// True when every package runs (natively or through PTX JIT) on every device.
[[nodiscard]] bool every_package_runs(const ScanReport& r);

[[nodiscard]] std::string format_scan(const ScanReport& r);
// The inventory alone, for when there is no device to judge for: each package's files and targets.
[[nodiscard]] std::string format_inventory(const Inventory& inv);
[[nodiscard]] std::string format_scan_markdown(const ScanReport& r);
[[nodiscard]] nlohmann::json scan_to_json(const ScanReport& r);

}  // namespace archbench::stack
