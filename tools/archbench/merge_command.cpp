// archbench merge: the fleet matrix from the run files of several devices (a nightly's matrix
// legs), as DIR/fleet.json (schema archbench.fleet v1), DIR/fleet.md (for the CI job summary,
// under 1 MiB) and DIR/fleet.html. With --baselines DIR, each device is compared with
// DIR/<device-key>.json when that file exists.
#include <filesystem>
#include <iostream>
#include <map>

#include "harness/report/fleet_markdown.hpp"
#include "harness/report/fleet_matrix.hpp"
#include "harness/report/html_fleet.hpp"
#include "harness/util/atomic_file.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/shared_options.hpp"
#include "tools/archbench/exit_codes.hpp"

namespace archbench::cli {
namespace {

// archbench merge: the fleet matrix of several devices' run files.
struct MergeOptions {
  std::vector<std::string> results;
  std::string out_dir;
  std::string baselines;   // directory of <device-key>.json; empty = no comparison
  std::string thresholds;
};

int merge_command(const MergeOptions& o) {
  std::vector<StoredRun> runs;
  std::map<std::string, FleetBaseline> baselines;
  Thresholds thresholds;
  try {
    for (const auto& path : o.results) runs.push_back(load_stored_run(path));
    if (!o.baselines.empty()) {
      if (!std::filesystem::is_directory(o.baselines)) throw StoredFileError("--baselines " + o.baselines + " is not a directory");
      for (const auto& run : runs) {
        for (const auto& d : run.devices) {
          const auto path = baseline_path_in(o.baselines, d.results.key);
          if (baselines.contains(d.results.key) || !std::filesystem::exists(path)) continue;
          baselines[d.results.key] = FleetBaseline{path, load_baseline(path)};
        }
      }
    }
    if (!o.thresholds.empty()) thresholds = Thresholds::load(o.thresholds);
  } catch (const StoredFileError& e) {
    std::cerr << "archbench merge: " << e.what() << "\n";
    return kBadInput;
  }
  const FleetMatrix m = build_fleet_matrix(runs, baselines, thresholds);
  try {
    std::filesystem::create_directories(o.out_dir);
    const std::filesystem::path dir(o.out_dir);
    write_file_atomically((dir / "fleet.json").string(), fleet_to_json(m).dump(1) + "\n");
    write_file_atomically((dir / "fleet.md").string(), fleet_to_markdown(m));
    write_file_atomically((dir / "fleet.html").string(), html::fleet_page(m));
  } catch (const std::exception& e) {
    std::cerr << "archbench merge: " << e.what() << "\n";
    return kInternal;
  }
  size_t failed = 0, regressions = 0;
  for (const auto& d : m.devices) {
    failed += d.failed;
    regressions += d.regressions;
    std::cout << d.column << ": " << d.operators << " operators, " << d.failed << " failed, "
              << (d.baseline.empty() ? std::string("no baseline") : std::to_string(d.regressions) + " regression(s) vs " + d.baseline)
              << "\n";
  }
  std::cout << "wrote " << o.out_dir << "/fleet.{json,md,html}: " << m.devices.size() << " device(s), " << m.rows.size()
            << " operator(s), " << failed << " failed, " << regressions << " regression(s)\n";
  return kOk;
}

}  // namespace

void add_merge_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(app, commands, "merge",
      "merge several devices' results into the fleet matrix: DIR/fleet.json, fleet.md, fleet.html", merge_command);
  value_name(cmd->add_option("results", o->results, "results of archbench run --json, one or more (one per device or build)"), "RESULTS...")->required();
  value_name(cmd->add_option("-o,--out", o->out_dir, "directory to write fleet.json, fleet.md and fleet.html into"), "DIR")->required();
  value_name(cmd->add_option("--baselines", o->baselines, "directory of <device-key>.json baselines: adds the change per device"), "DIR");
  add_thresholds_option(cmd, o->thresholds);
}

}  // namespace archbench::cli
