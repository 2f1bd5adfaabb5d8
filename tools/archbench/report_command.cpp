// archbench report: one run file as a self-contained HTML page (html_run_report.hpp). With
// --baseline (a file, or a directory of <device-key>.json), regressions lead the page and the
// bar charts mark the baseline's % of ceiling.
#include <filesystem>
#include <iostream>

#include "harness/report/html_run_report.hpp"
#include "harness/util/atomic_file.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/shared_options.hpp"
#include "tools/archbench/exit_codes.hpp"

namespace archbench::cli {
namespace {

// archbench report: one run file as a self-contained HTML page.
struct ReportOptions {
  std::string results;
  std::string html_path;
  std::string baseline;    // a baseline file or a directory of <device-key>.json
  std::string thresholds;
};

int report_command(const ReportOptions& o) {
  html::RunReportInputs in;
  StoredRun run;
  try {
    run = load_stored_run(o.results);
    if (!o.baseline.empty()) {
      if (std::filesystem::is_directory(o.baseline)) {
        for (const auto& d : run.devices) {
          const auto path = baseline_for_device_in(o.baseline, d.results.key, d.results.device.uuid);
          if (std::filesystem::exists(path)) in.baselines[html::baseline_slot(d)] = load_baseline(path);
        }
      } else {  // one file: the baseline of every device of its key
        const DeviceResults b = load_baseline(o.baseline);
        for (const auto& d : run.devices) {
          if (d.results.key == b.key) in.baselines[html::baseline_slot(d)] = b;
        }
      }
    }
    if (!o.thresholds.empty()) in.thresholds = Thresholds::load(o.thresholds);
  } catch (const StoredFileError& e) {
    std::cerr << "archbench report: " << e.what() << "\n";
    return kBadInput;
  }
  in.run = &run;
  size_t with_baseline = 0;
  for (const auto& d : run.devices) with_baseline += in.baselines.contains(html::baseline_slot(d)) ? 1 : 0;
  if (!o.baseline.empty() && with_baseline == 0) {
    std::cerr << "archbench report: note: " << o.baseline << " holds no baseline for the device(s) of " << o.results
              << "; the report shows failures only\n";
  }
  try {
    write_file_atomically(o.html_path, html::run_report_page(in));
  } catch (const std::exception& e) {
    std::cerr << "archbench report: " << e.what() << "\n";
    return kInternal;
  }
  std::cout << "wrote " << o.html_path << " (" << run.devices.size() << " device(s), " << with_baseline << " with a baseline)\n";
  return kOk;
}

}  // namespace

void add_report_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(
      app, commands, "report", "write one run's results as a self-contained HTML report", report_command);
  value_name(cmd->add_option("results", o->results, "results of archbench run --json"), "RESULTS")->required();
  value_name(cmd->add_option("--html", o->html_path, "the HTML file to write"), "FILE")->required();
  add_baseline_option(cmd, o->baseline);
  add_thresholds_option(cmd, o->thresholds);
}

}  // namespace archbench::cli
