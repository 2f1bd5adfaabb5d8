// archbench baseline update / archbench compare: stored per-device baselines as a CI gate.
#include <fmt/format.h>

#include "harness/ops/id_filter.hpp"

#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "harness/baseline/compare.hpp"
#include "harness/util/atomic_file.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/exit_codes.hpp"

namespace archbench::cli {

int baseline_update_command(const BaselineUpdateOptions& o) {
  // Every run of the same device is pooled into one baseline for that device.
  std::vector<DeviceResults> devices;
  std::vector<size_t> runs_per_device;
  try {
    std::map<std::string, std::vector<DeviceResults>> runs_by_key;
    std::vector<std::string> order;
    for (const auto& path : o.from) {
      for (auto& d : load_run_results(path)) {
        if (!runs_by_key.contains(d.key)) order.push_back(d.key);
        runs_by_key[d.key].push_back(std::move(d));
      }
    }
    for (const auto& key : order) {
      devices.push_back(merge_runs(runs_by_key[key]));
      runs_per_device.push_back(runs_by_key[key].size());
    }
  } catch (const StoredFileError& e) {
    std::cerr << "archbench baseline update: " << e.what() << "\n";
    return kBadInput;
  }
  if (!o.out.empty() && devices.size() != 1) {
    std::cerr << "archbench baseline update: --out names one file but the results hold " << devices.size()
              << " devices; use --dir\n";
    return kUsage;
  }
  int rc = kOk;
  for (size_t i = 0; i < devices.size(); ++i) {
    const DeviceResults& d = devices[i];
    const std::string path = o.out.empty() ? (std::filesystem::path(o.dir) / (d.key + ".json")).string() : o.out;
    if (std::filesystem::exists(path) && !o.force) {
      try {
        const DeviceResults old = load_baseline(path);
        if (old.key != d.key) {
          std::cerr << fmt::format("archbench baseline update: {} is the baseline of {}, not {}; refusing (--force overrides)\n",
                                   path, old.key, d.key);
          rc = kBadInput;
          continue;
        }
        if (auto diff = build_difference(old.build, d.build); !diff.empty()) {
          std::cerr << fmt::format("archbench baseline update: {} was made by a different build ({}); refusing (--force overrides)\n",
                                   path, diff);
          rc = kBadInput;
          continue;
        }
      } catch (const StoredFileError& e) {
        std::cerr << "archbench baseline update: the existing baseline cannot be read, refusing to replace it (--force overrides): "
                  << e.what() << "\n";
        rc = kBadInput;
        continue;
      }
    }
    try {
      if (auto parent = std::filesystem::path(path).parent_path(); !parent.empty()) std::filesystem::create_directories(parent);
      save_baseline(path, d);
    } catch (const std::exception& e) {
      std::cerr << "archbench baseline update: " << e.what() << "\n";
      return kInternal;
    }
    std::cout << fmt::format("wrote {} ({} operators, device {}, {} run(s) pooled)\n", path, d.operators.size(), d.key,
                             runs_per_device[i]);
  }
  return rc;
}

int compare_command(const CompareOptions& o) {
  DeviceResults baseline;
  std::vector<DeviceResults> results;
  Thresholds thresholds;
  std::string baseline_path = o.baseline;
  try {
    results = load_run_results(o.results);
    if (std::filesystem::is_directory(o.baseline)) {  // a directory of <device-key>.json: pick ours
      baseline_path.clear();
      for (const auto& d : results) {
        const auto candidate = std::filesystem::path(o.baseline) / (d.key + ".json");
        if (std::filesystem::exists(candidate)) baseline_path = candidate.string();
      }
      if (baseline_path.empty()) {
        std::cerr << "archbench compare: no baseline for " << results.front().key << " in " << o.baseline
                  << " (make one with archbench baseline update)\n";
        return kBadInput;
      }
    }
    baseline = load_baseline(baseline_path);
    if (!o.thresholds.empty()) thresholds = Thresholds::load(o.thresholds);
  } catch (const StoredFileError& e) {
    std::cerr << "archbench compare: " << e.what() << "\n";
    return kBadInput;
  }
  const DeviceResults* now = nullptr;
  std::string keys;
  for (const auto& d : results) {
    keys += (keys.empty() ? "" : ", ") + d.key;
    if (d.key == baseline.key) now = &d;
  }
  if (now == nullptr) {
    std::cerr << fmt::format("archbench compare: {} is the baseline of {}, but {} holds results for {}\n", baseline_path,
                             baseline.key, o.results, keys);
    return kBadInput;
  }
  std::cout << fmt::format("compare {} against baseline {} ({})\n", o.results, baseline_path, baseline.key);
  if (auto diff = build_difference(baseline.build, now->build); !diff.empty()) {
    std::cout << "note: the builds differ (" << diff << "); image verdicts are compared as they are\n";
  }
  // --filter narrows both sides alike, so a partial run is not reported as "absent".
  auto keep = [&](std::vector<OperatorResult>& ops) {
    std::erase_if(ops, [&](const OperatorResult& r) { return !id_matches(o.filter, r.id); });
  };
  DeviceResults current = *now;
  const DeviceResults whole_baseline = baseline;  // unstable variants are judged on all of it
  keep(baseline.operators);
  keep(current.operators);
  const auto rows = compare_results(baseline, current, thresholds, &whole_baseline);
  std::map<Change, int> counts;
  int regressions = 0;
  nlohmann::json out = nlohmann::json::array();
  std::cout << fmt::format("{:<46} {:<22} {}\n", "operator", "change", "detail");
  for (const auto& r : rows) {
    ++counts[r.change];
    regressions += r.regression() ? 1 : 0;
    std::cout << fmt::format("{:<46} {:<22} {}\n", r.id, change_name(r.change), r.detail);
    out.push_back({{"id", r.id}, {"change", change_name(r.change)}, {"regression", r.regression()}, {"effect", r.effect},
                   {"p_value", r.p_value}, {"cycles_effect", r.cycles_effect}, {"base_ms", r.base_ms},
                   {"now_ms", r.now_ms}, {"detail", r.detail}});
  }
  std::string summary;
  for (const auto& [change, n] : counts) summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", n, change_name(change));
  std::cout << fmt::format("summary: {}; {} regression(s) -> {}\n", summary, regressions, regressions ? "FAIL" : "PASS");
  if (const int n = counts[Change::TimingModeChanged]; n > 0) {
    std::cout << fmt::format("note: {} operator(s) timed by CUDA-graph replay on one side and single launches on the "
                             "other: their times were not compared (not counted as regressions)\n", n);
  }
  if (const int n = counts[Change::Unstable]; n > 0) {
    std::cout << fmt::format("note: {} operator(s) unstable: their baseline runs disagree by more than max_spread, so "
                             "their times are shown but not gated (not counted as regressions)\n", n);
  }
  if (!o.json_path.empty()) {
    try {
      write_file_atomically(o.json_path, nlohmann::json{{"schema", "archbench.compare"}, {"schema_version", 1},
                                                        {"device_key", baseline.key}, {"operators", out}}
                                             .dump(2) + "\n");
    } catch (const std::exception& e) {
      std::cerr << "archbench compare: " << e.what() << "\n";
      return kInternal;
    }
  }
  return regressions > 0 ? kOperatorFailed : kOk;
}

}  // namespace archbench::cli
