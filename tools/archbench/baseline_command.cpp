// archbench baseline update: stored per-device baselines, pooled from runs or rebuilt from a history.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/ops/id_filter.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <iostream>
#include <map>
#include <ostream>
#include <streambuf>
#include <nlohmann/json.hpp>

#include "harness/baseline/compare.hpp"
#include "harness/history/history_baselines.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "harness/util/text_wrap.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/json_output.hpp"

namespace archbench::cli {
namespace {

struct BaselineUpdateOptions {
  std::vector<std::string> from;    // run results (archbench run --json); several runs are pooled
  std::string from_history;         // or a history store: per runner, the runs since its last change point
  size_t min_runs = 5;              // --from-history: runs a runner's baseline needs
  std::string dir = "baselines";    // writes <dir>/<device-key>.json per device (<key>@<uuid>.json per runner)
  std::string out;                  // or exactly this file (one device only)
  bool force = false;
};

// Runs a gate's baseline should pool: the envelope of fewer runs misses the slower modes that
// some operators show only in some processes (cuBLAS's large GEMMs, cuDNN's small convs).
constexpr size_t kRecommendedBaselineRuns = 8;

// The file's bytes hashed, or nothing when it cannot be read (load_run_results then says why).
std::optional<size_t> content_hash(const std::string& path) {
  std::error_code ec;
  if (const auto size = std::filesystem::file_size(path, ec); ec || size > kMaxStoredFileBytes) return std::nullopt;
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  const std::string bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  if (f.bad()) return std::nullopt;
  return std::hash<std::string>{}(bytes);
}

}  // namespace

namespace {

// Writes one baseline, refusing to replace one of another device key or build, or an unreadable
// one, unless forced. Returns an exit code (kOk when written).
int write_baseline(const std::string& path, const DeviceResults& d, bool force) {
  if (std::filesystem::exists(path) && !force) {
    try {
      const DeviceResults old = load_baseline(path);
      if (old.key != d.key) {
        std::cerr << fmt::format("archbench baseline update: {} is the baseline of {}, not {}; refusing (--force overrides)\n",
                                 path, old.key, d.key);
        return kBadInput;
      }
      if (auto diff = build_difference(old.build, d.build); !diff.empty()) {
        std::cerr << fmt::format("archbench baseline update: {} was made by a different build ({}); refusing (--force overrides)\n",
                                 path, diff);
        return kBadInput;
      }
    } catch (const StoredFileError& e) {
      std::cerr << "archbench baseline update: the existing baseline cannot be read, refusing to replace it (--force overrides): "
                << e.what() << "\n";
      return kBadInput;
    }
  }
  try {
    if (auto parent = std::filesystem::path(path).parent_path(); !parent.empty()) std::filesystem::create_directories(parent);
    save_baseline(path, d);
  } catch (const std::exception& e) {
    std::cerr << "archbench baseline update: " << e.what() << "\n";
    return kInternal;
  }
  return kOk;
}

std::string floor_words(const DeviceResults& d) {
  return d.timer_floor_ms ? fmt::format("timer floor {:.2f} us", *d.timer_floor_ms * 1e3)
                          : std::string("no timer floor: some run predates it");
}

// --from-history: one baseline per runner of the store (harness/history/history_baselines.hpp).
int baseline_update_from_history(const BaselineUpdateOptions& o) {
  if (!o.out.empty()) {
    std::cerr << "archbench baseline update: --out names one file; --from-history writes one per runner into --dir\n";
    return kUsage;
  }
  history::HistoryBaselines made;
  try {
    const auto store = history::HistoryStore::open(o.from_history, false);
    history::BaselineRules rules;
    rules.min_runs = o.min_runs;
    made = history::baselines_from_history(store, rules);
  } catch (const std::exception& e) {
    std::cerr << text::wrap_text(std::string("archbench baseline update: ") + e.what() + "\n");
    return kBadInput;
  }
  int rc = kOk;
  for (const auto& b : made.made) {
    const std::string path = runner_baseline_path_in(o.dir, b.baseline.key, b.runner);
    if (const int w = write_baseline(path, b.baseline, o.force); w != kOk) {
      rc = w;
      continue;
    }
    std::cout << text::wrap(fmt::format("wrote {} ({} operators, {} on runner {}, {} run(s) pooled, runs {}-{} of {}: "
                                        "since {} (from {}), {})",
                                        path, b.baseline.operators.size(), b.device_name, b.runner, b.pooled_runs,
                                        b.first_run + 1, b.last_run + 1, b.runner_runs, b.after, b.since,
                                        floor_words(b.baseline)),
                            text::kColumns, "", "    ");
  }
  for (const auto& s : made.skipped) {
    std::cout << text::wrap(fmt::format("no baseline for runner {} ({}): {}", s.runner, s.device_name, s.why),
                            text::kColumns, "", "    ");
  }
  if (made.made.empty()) {
    std::cout << "baseline update: no runner baseline could be made from " << history::store_label(o.from_history)
              << " (above: why, per runner): nothing written\n";
    return rc == kOk ? kOperatorFailed : rc;
  }
  return rc;
}

int baseline_update_command(const BaselineUpdateOptions& o) {
  if (!o.from_history.empty()) return baseline_update_from_history(o);
  if (o.from.empty()) {
    std::cerr << "archbench baseline update: give run results (--from FILE, repeatable) or a history store "
                 "(--from-history STORE)\n";
    return kUsage;
  }
  // Every run of the same device is pooled into one baseline for that device.
  std::vector<DeviceResults> devices;
  std::vector<size_t> runs_per_device;
  try {
    std::map<std::string, std::vector<DeviceResults>> runs_by_key;
    std::vector<std::string> order;
    std::map<size_t, std::string> seen;  // hash of the file's bytes -> the path first given with them
    for (const auto& path : o.from) {
      // One run given twice (the same path, a copy, a link) would count its samples twice and
      // narrow the envelope a gate judges against.
      if (const auto hash = content_hash(path); hash && seen.contains(*hash)) {
        std::cerr << fmt::format("archbench baseline update: note: {} holds the same run as {}; counted once\n", path,
                                 seen.at(*hash));
        continue;
      } else if (hash) {
        seen.emplace(*hash, path);
      }
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
    const std::string path = o.out.empty() ? baseline_path_in(o.dir, d.key) : o.out;
    if (const int w = write_baseline(path, d, o.force); w != kOk) {
      if (w == kInternal) return w;
      rc = w;
      continue;
    }
    std::cout << fmt::format("wrote {} ({} operators, device {}, {} run(s) pooled, {})\n", path, d.operators.size(), d.key,
                             runs_per_device[i], floor_words(d));
    if (runs_per_device[i] < kRecommendedBaselineRuns) {
      std::cout << text::wrap(fmt::format("{} run(s) may not show every operator's slower mode between processes: "
                                          "pool {}+ for a gate, best from two or more machines "
                                          "(docs/baselines-and-ci-gate.md, \"Making a baseline\")",
                                          runs_per_device[i], kRecommendedBaselineRuns),
                              text::kColumns, "note: ", "  ");
    }
  }
  return rc;
}

}  // namespace

void add_baseline_command(CLI::App& app, Commands& commands) {
  CLI::App* cmd = app.add_subcommand("baseline", "manage stored per-device baselines");
  cmd->require_subcommand(1);
  auto [update, o] = add_command(*cmd, commands, "update", "store run results as the baseline of their device(s)",
                                 baseline_update_command);
  auto* from = value_name(update->add_option("--from", o->from, "results of archbench run --json; repeat to pool several runs (recommended: 8+)"), "FILE");
  value_name(update->add_option("--from-history", o->from_history,
                 "a history store (SQLite file or PostgreSQL connection string): one baseline per runner, "
                 "<device-key>@<GPU UUID>.json, from its runs since its last change point"), "STORE")
      ->excludes(from);
  value_name(update->add_option("--min-runs", o->min_runs,
                 "with --from-history: the runs since the last change point a runner's baseline needs (default 5)"),
             "N")->check(CLI::Range(size_t{2}, history::kKeptResultsPerRunner));
  value_name(update->add_option("--dir", o->dir, "directory of <device-key>.json baselines (default: baselines)"), "DIR");
  value_name(update->add_option("--out", o->out, "write exactly this file (results of one device only)"), "FILE");
  update->add_flag("--force", o->force, "replace a baseline of another device key or build, or an unreadable one");
}

}  // namespace archbench::cli
