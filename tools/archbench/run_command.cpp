// archbench run: for every selected device, a check phase (image probe + correctness, in a
// CUDA_LAUNCH_BLOCKING=1 worker) and a timing phase (asynchronous, in a second worker), then
// the report and the exit code.
#include <cstddef>
#include <cstdint>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>

#include "harness/device/environment.hpp"
#include "harness/report/console.hpp"
#include "harness/result/result_json.hpp"
#include "harness/util/text_wrap.hpp"
#include "harness/ops/registry.hpp"
#include "harness/run/graph_replay.hpp"
#include "harness/run/phases.hpp"
#include "kernels/path_preference.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/shared_options.hpp"
#include "tools/archbench/device_selection.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/json_output.hpp"
#include "tools/archbench/phase_runner.hpp"
#include "tools/archbench/progress.hpp"
#include "tools/archbench/selection.hpp"
#include "tools/archbench/worker_process.hpp"

namespace archbench::cli {
namespace {

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
  CudaGraphMode cuda_graph = CudaGraphMode::Off;  // CUDA-graph replay in the timing phase
  std::optional<double> op_timeout_s;  // per-operator deadline; default derived per operator
  bool quiet = false;                  // no progress on stderr (the report on stdout is unchanged)
};

// The time phase's replies into the device's records, joined by operator id: each reply is the
// checked record the timing worker was given, completed with its timing (and what the library chose
// there, or the error or fault it met, "not reported by the time worker" included).
void join_by_id(std::vector<OperatorResult>& records, std::vector<OperatorResult> replies) {
  for (auto& reply : replies) {
    auto it = std::ranges::find(records, reply.id, &OperatorResult::id);
    if (it != records.end()) *it = std::move(reply);
  }
}

// The header's account of how the timing phase measured.
std::string timing_method(const RunOptions& o) {
  const CudaGraphMode graph = o.cuda_graph;
  if (o.quick) return "quick tier: check shapes only; no benchmark shapes, no timing (a full run: without --quick)";
  if (!o.timing) return "no timing (--no-timing)";
  std::string s = std::string("timing: async worker, CUDA events, median, ") + (o.hot_l2 ? "hot L2" : "cold L2");
  if (graph == CudaGraphMode::Off) return s;
  s += graph == CudaGraphMode::All ? std::string(", CUDA-graph replay")
                                   : fmt::format(", CUDA-graph replay below {:g} us", kGraphAutoThresholdMs * 1e3);
  return s + (o.hot_l2 ? " (time per launch)" : " (time per launch; L2 flushed between replays only)");
}

// Which timed operators were replayed from CUDA graphs, and how many fell back to single launches.
std::string graph_replay_line(const DeviceReport& d) {
  int replayed = 0, fell_back = 0, min_batch = kGraphMaxBatch, max_batch = 0;
  for (const auto& r : d.operators) {
    if (!r.timing) continue;
    if (r.timing->mode == LaunchMode::Graph) {
      ++replayed;
      min_batch = std::min(min_batch, r.timing->graph_batch);
      max_batch = std::max(max_batch, r.timing->graph_batch);
    }
    if (!r.timing->graph_fallback.empty()) ++fell_back;
  }
  std::string s = fmt::format("CUDA-graph replay: {} operator(s)", replayed);
  if (replayed > 0) s += min_batch == max_batch ? fmt::format(" (batch {})", min_batch) : fmt::format(" (batch {}-{})", min_batch, max_batch);
  if (fell_back > 0) s += fmt::format("; {} could not be captured and were timed by single launches (findings say why)", fell_back);
  return s + "\n";
}

int run_command(const RunOptions& o) {
  if (is_stdout(o.json_path) && is_stdout(o.gbench_json_path)) {
    std::cerr << "archbench run: --json - and --gbench-json - cannot both write to stdout\n";
    return kUsage;
  }
  // With JSON on stdout, the report goes to stderr (json_output.hpp).
  const TextToStderr text_to_stderr(is_stdout(o.json_path) || is_stdout(o.gbench_json_path));
  const auto selected = select_or_explain("run", o.filter, o.dtypes);
  if (!selected) return kUsage;
  const std::vector<const Operator*>& ops = *selected;

  // A malformed --device is a usage error (exit 2) whether or not a GPU is there; which indices
  // are visible is known once CUDA starts.
  try {
    (void)parse_device_selection(o.device, -1);
  } catch (const UsageError& e) {
    std::cerr << "archbench run: " << e.what() << "\n";
    return kUsage;
  }
  RunReport report;
  report.selection = selection_of(o.filter, o.dtypes, ops.size());
  report.build = build_manifest();
  report.environment = probe_environment();
  if (!report.environment.usable()) {
    std::cout << format_manifest(report.build);
    std::cerr << text::wrap_text("archbench run: no usable CUDA device: " +
                                 (report.environment.device_count_error != 0
                                      ? report.environment.device_count_error_text
                                      : std::string("the driver reports 0 devices")) +
                                 "\n");
    if (!o.json_path.empty()) write_output(o.json_path, report_to_json(report).dump(2) + "\n");
    return kNoDevice;
  }
  std::vector<int> devices;
  try {
    devices = parse_device_selection(o.device, static_cast<int>(report.environment.devices.size()));
  } catch (const UsageError& e) {
    std::cerr << "archbench run: " << e.what() << "\n";
    return kUsage;
  }
  const uint64_t seed = o.seed.value_or(std::random_device{}() | (uint64_t{std::random_device{}()} << 32));

  bool worker_failed = false;
  RunProgress progress(stderr, RunProgress::detect(stderr, o.quiet), std::getenv("NO_COLOR") == nullptr);
  for (int index : devices) {
    DeviceReport dr;
    dr.device = report.environment.devices[static_cast<size_t>(index)];
    PhasePlan plan;
    plan.label = phase_name(Phase::Check);
    plan.ops = ops;
    plan.op_timeout_s = o.op_timeout_s;
    plan.worker.task.phase = Phase::Check;
    plan.worker.task.device = index;
    plan.worker.task.seed = seed;
    plan.worker.task.hot_l2 = o.hot_l2;
    plan.worker.task.quick = o.quick;
    plan.worker.task.cuda_graph = o.cuda_graph;
    // The check is mostly host work (inputs, references, library set-up): several workers at once,
    // as many as the device's memory allows (fewer for the full check's benchmark shapes).
    plan.workers = check_workers(dr.device.memory_bytes, o.quick);
    const PhaseOutcome check = run_device_phase(plan, progress);
    dr.operators = check.results;
    dr.phase_seconds[Phase::Check] = check.seconds;
    worker_failed |= !check.failure.empty();

    if (o.timing && !o.quick) {
      // Timed: what was checked and passed, in operator order, each with its checked record.
      std::vector<const Operator*> timed;
      std::vector<OperatorResult> checked;
      for (size_t i = 0; i < ops.size(); ++i) {
        if (dr.operators[i].failed() || !dr.operators[i].correctness) continue;
        timed.push_back(ops[i]);
        checked.push_back(dr.operators[i]);
      }
      if (!timed.empty()) {
        plan.label = phase_name(Phase::Time);
        plan.worker.task.phase = Phase::Time;
        plan.ops = timed;
        plan.prior = std::move(checked);
        plan.workers = 1;
        const PhaseOutcome time = run_device_phase(plan, progress);
        dr.phase_seconds[Phase::Time] = time.seconds;
        dr.ceilings = time.ceilings;
        join_by_id(dr.operators, time.results);
        worker_failed |= !time.failure.empty();
      }
    }
    dr.paths = choose_paths(dr.operators, kernels::path_preferences());
    std::cout << format_device_header(report.environment, dr, report.build)
              << text::wrap_fields({fmt::format("seed {}", seed), "check: CUDA_LAUNCH_BLOCKING=1 worker",
                                    timing_method(o)},
                                   " | ", text::kColumns, "", "  ")
              << "\n"
              << format_operator_table(dr);
    if (o.timing && o.cuda_graph != CudaGraphMode::Off) std::cout << "\n" << text::wrap_text(graph_replay_line(dr));
    if (const std::string paths = format_paths(dr); !paths.empty()) std::cout << "\n" << paths;
    std::string phases;
    for (const auto& [phase, secs] : dr.phase_seconds) phases += fmt::format("{}{} {:.0f} s", phases.empty() ? "" : ", ", phase_name(phase), secs);
    if (!phases.empty()) std::cout << "\nphases: " << phases << "\n";
    const std::string findings = format_findings(dr);
    if (!findings.empty()) std::cout << "\nfindings:\n" << findings;
    std::cout << "\n";
    report.devices.push_back(std::move(dr));
  }
  if (report.selection.narrowed()) std::cout << "selection: " << report.selection.describe() << "\n";
  std::cout << format_summary(report);

  if (!o.json_path.empty() && !write_or_say("run", o.json_path, report_to_json(report).dump(2) + "\n")) return kInternal;
  if (!o.gbench_json_path.empty() &&
      !write_or_say("run", o.gbench_json_path, report_to_gbench_json(report).dump(1) + "\n")) {
    return kInternal;
  }
  for (const auto& d : report.devices) {
    for (const auto& r : d.operators) if (r.failed()) return kOperatorFailed;
  }
  return worker_failed ? kInternal : kOk;
}

}  // namespace

void add_run_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(
      app, commands, "run", "probe images, check correctness (blocking) and time every operator", run_command);
  add_filter_option(cmd, o->filter, "operator ids: 'matmul/*', 'norm/*,*/f16/*'");
  value_name(cmd->add_option("--dtype", o->dtypes, "comma-separated dtypes: f32,tf32,f16,bf16,e4m3,e5m2"), "LIST")->delimiter(',');
  value_name(cmd->add_option("--device", o->device,
                 "CUDA device indices, comma-separated (0,1), or all (default); CUDA's numbering: the devices "
                 "CUDA_VISIBLE_DEVICES leaves, fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID (nvidia-smi's "
                 "order)"), "LIST");
  add_json_option(cmd, o->json_path, "the results", "archbench.run v1");
  value_name(cmd->add_option("--gbench-json", o->gbench_json_path, "also write the timings in Google Benchmark's JSON format; - for stdout"), "FILE");
  value_name(cmd->add_option("--seed", o->seed, "seed for the random inputs (default: fresh, recorded in the report)"), "N");
  cmd->add_flag("!--no-timing", o->timing, "image and correctness only");
  cmd->add_flag("--quick", o->quick,
                "the quick tier, for after an environment change: every image and correctness at the check shapes; "
                "no benchmark shapes, no timing");
  cmd->add_flag("--hot-l2", o->hot_l2, "do not flush the L2 between timing samples");
  add_enum_option(cmd, "--cuda-graph", o->cuda_graph, kCudaGraphModes,
                  "time by CUDA-graph replay: off (default), auto (launch-bound operators, pilot median < 50 us) "
                  "or all; the time is then per launch in a back-to-back replay");
  value_name(cmd->add_option("--op-timeout", o->op_timeout_s,
                 "seconds an operator may run before its worker is killed and it is recorded as hung "
                 "(default: derived per operator from its size)"), "SECONDS")
      ->check(positive_seconds());
  cmd->add_flag("-q,--quiet", o->quiet,
                "no progress on stderr (default: one line updated in place on a terminal, one plain line per operator otherwise)");
}

}  // namespace archbench::cli
