// The archbench subcommands; main.cpp wires them to CLI11.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/result/phase.hpp"

namespace archbench::cli {

struct RunOptions {
  std::string filter = "*";
  std::vector<std::string> dtypes;
  std::string device = "all";  // "all", an index or a list "0,1" (device_selection.hpp)
  std::string json_path;
  std::string gbench_json_path;
  std::optional<uint64_t> seed;
  bool timing = true;
  bool quick = false;  // the quick tier: images and correctness at the check shapes, nothing else
  bool hot_l2 = false;
  std::string cuda_graph = "off";      // off | auto | all: CUDA-graph replay in the timing phase
  std::optional<double> op_timeout_s;  // per-operator deadline; default derived per operator
  bool quiet = false;                  // no progress on stderr (the report on stdout is unchanged)
};
int run_command(const RunOptions& o);

struct ListOptions {
  std::string filter = "*";
  std::vector<std::string> dtypes;
  std::string json_path;  // the operators as JSON (schema archbench.list v1); "-" = stdout
};
int list_command(const ListOptions& o);

struct FrameworkOptions {
  std::string python = "python3";  // the user's interpreter, whose torch is probed
  std::string filter = "*";        // over framework op ids and their registry twins' ids
  std::vector<std::string> dtypes;
  bool quick = false;              // images, backends and correctness; no timing
  bool list = false;               // the framework ops and their twins, nothing run
  std::string json_path;
  std::string html_path;  // the page of framework_page (harness/report/html_framework.hpp)
  std::string probe;               // the probe script (default: the one this build ships)
  std::string answer_path;         // judge this recorded probe answer (or framework JSON) instead of running
  std::string baseline_path;       // an earlier run to gate against (framework_compare.hpp)
  double timeout_s = 900;          // the whole probe's deadline
  std::vector<std::string> disable_sdpa_backends;  // forced fallback: the default dispatch without these
  std::vector<std::string> plugin_files;  // the user's own ops (docs/framework.md, "Your own ops")
  std::string steps = "sd15-unet,sdxl-unet,sd3-mmdit,flux-dit";  // denoiser steps (not in --quick); "none"
  uint64_t seed = 1;
};
int framework_command(const FrameworkOptions& o);

struct HistoryOptions {
  std::string action;               // add, merge, list, check
  std::vector<std::string> files;   // runs (add) or stores (merge)
  std::string store = "archbench-history.sqlite";
  size_t recent_runs = 14;          // check: steps among each runner's newest this many runs
  double min_step = 0.03;           // check: the smallest step that counts
  std::string json_path;
  std::string markdown_path;        // check: a Markdown summary for a CI job page
  std::string html_path;            // check: the trend page (harness/history/trend_page.hpp)
};
int history_command(const HistoryOptions& o);

struct ArchListOptions {
  std::string list;  // a TORCH_CUDA_ARCH_LIST or CMAKE_CUDA_ARCHITECTURES value
  std::string nvcc;  // the toolkit whose targets it may name (default: nvcc on PATH, then /usr/local/cuda)
};
int arch_list_command(const ArchListOptions& o);

struct InspectOptions {
  std::vector<std::string> files;
  bool kernels = false;
  std::string filter = "*";
  std::string json_path;
  std::vector<std::string> devices;
  std::string driver;
  std::string fleet_path;
};
int inspect_command(const InspectOptions& o);

struct BaselineUpdateOptions {
  std::vector<std::string> from;    // run results (archbench run --json); several runs are pooled
  std::string from_history;         // or a history store: per runner, the runs since its last change point
  size_t min_runs = 5;              // --from-history: runs a runner's baseline needs
  std::string dir = "baselines";    // writes <dir>/<device-key>.json per device (<key>@<uuid>.json per runner)
  std::string out;                  // or exactly this file (one device only)
  bool force = false;
};
int baseline_update_command(const BaselineUpdateOptions& o);

struct CompareOptions {
  std::string baseline;
  std::string results;
  std::string thresholds;
  std::string json_path;
  std::string filter = "*";  // compare only operators whose id matches (both sides)
  bool floor_correction = true;  // take the timer-floor shift out before judging (compare.hpp)
  std::string confirm;            // a later run of (at least) the slower operators: confirm_slowdowns
  bool list_slower = false;       // print only the slower operators' ids, comma-separated (a --filter)
};
int compare_command(const CompareOptions& o);

// archbench merge: the fleet matrix of several devices' run files (merge_command.cpp).
struct MergeOptions {
  std::vector<std::string> results;
  std::string out_dir;
  std::string baselines;   // directory of <device-key>.json; empty = no comparison
  std::string thresholds;
};
int merge_command(const MergeOptions& o);

// archbench report: one run file as a self-contained HTML page (report_command.cpp).
struct ReportOptions {
  std::string results;
  std::string html_path;
  std::string baseline;    // a baseline file or a directory of <device-key>.json
  std::string thresholds;
};
int report_command(const ReportOptions& o);

// archbench resources: ctest's resource spec file from the visible GPUs (resources_command.cpp).
struct ResourcesOptions {
  std::string json_path;
  int slots = 1;              // GPU tests per GPU at once
  std::optional<int> count;   // declare this many GPUs instead of probing (a spec for another host)
};
int resources_command(const ResourcesOptions& o);

// Internal: one phase for a set of operators on one device, in a fresh process.
struct WorkerOptions {
  Phase phase = Phase::Check;
  int device = 0;
  std::string ids_path;
  std::string out_path;
  uint64_t seed = 0;
  bool hot_l2 = false;
  std::string cuda_graph = "off";  // time phase: off | auto | all
  bool load_times = false;  // check phase: report each operator's first kernel load time (the doctor's JIT cost)
  bool probe_only = false;  // check phase: the image probe only, no correctness run (the doctor's JIT passes)
  bool quick = false;       // check phase: the check shape only, no benchmark-shape pass (run --quick)
};
int worker_command(const WorkerOptions& o);

// archbench doctor: the four-layer environment check (doctor_command.cpp documents the exit codes).
struct DoctorOptions {
  std::vector<std::string> check_files;  // --check: other binaries to judge for every device present
  bool jit_passes = false;               // also the forced-JIT and no-JIT workload passes
  std::string json_path;
  std::string filter = "*";              // operators of the workload layer
  bool quiet = false;                    // no per-operator progress on stderr
  bool full = false;                     // the workload at benchmark shapes too (default: the quick tier)
  std::string python = "python3";        // whose torch the framework check probes
  bool framework = true;                 // the framework check [framework] (harness/doctor/framework_check)
};
int doctor_command(const DoctorOptions& o);

// archbench scan: the packages of an environment, wheel, image or folder, per device (scan_command.cpp).
struct ScanOptions {
  std::vector<std::string> paths;  // empty: the environment of `python`
  std::string python = "python3";
  std::vector<std::string> devices;  // empty (and no fleet): the GPUs present
  std::string driver;
  std::string fleet_path;
  bool files = false;    // every file of every package
  bool kernels = false;  // name kernels (decompresses every image) and judge kernel by kernel
  std::string json_path;
  std::string markdown_path;
  unsigned threads = 0;
  bool quiet = false;
};
int scan_command(const ScanOptions& o);

}  // namespace archbench::cli
