// archbench run: for every selected device, a check phase (image probe + correctness, in a
// CUDA_LAUNCH_BLOCKING=1 worker) and a timing phase (asynchronous, in a second worker), then
// the report and the exit code.
#include <cstddef>
#include <cstdint>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
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
#include "harness/run/error_oracle.hpp"
#include "harness/run/graph_replay.hpp"
#include "harness/run/phases.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/device_selection.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/json_output.hpp"
#include "tools/archbench/progress.hpp"
#include "tools/archbench/selection.hpp"
#include "tools/archbench/worker_process.hpp"

namespace archbench::cli {
namespace {

// Results of a phase, in operator order; operators the worker never reported carry its failure.
void merge_phase(std::vector<OperatorResult>& results, const std::vector<std::string>& sent,
                 const WorkerOutcome& outcome, const std::string& phase) {
  std::map<std::string, const OperatorResult*> by_id;
  for (const auto& r : outcome.results) by_id[r.id] = &r;
  for (auto& r : results) {
    auto it = by_id.find(r.id);
    if (it != by_id.end()) {
      if (phase == "check") {
        r = *it->second;
      } else {
        r.timing = it->second->timing;
        // The timing worker chose again in its own process: report what was timed.
        if (!it->second->implementation.empty()) r.implementation = it->second->implementation;
        if (!it->second->error.empty()) r.error = it->second->error;
        if (!it->second->fault.empty()) r.fault = it->second->fault;
      }
    } else if (auto f = std::ranges::find(outcome.faults, r.id, &OperatorFault::id); f != outcome.faults.end()) {
      r.fault = f->fault;
      r.error = f->error;
    } else if (!outcome.failure.empty() && std::ranges::find(sent, r.id) != sent.end()) {
      r.error = outcome.failure + " before reporting this operator";
    }
  }
}

// Seconds an operator may take before its worker is declared hung: --op-timeout, or a base for
// the phase (the check phase includes the CPU reference; the timer caps each operator at about
// a second) plus 100x a pessimistic GPU time at the benchmark shape (10 TFLOP/s, 200 GB/s).
DeadlineFn deadline_for(const std::vector<const Operator*>& ops, const RunOptions& o, const std::string& phase) {
  std::map<std::string, double> seconds;
  for (const auto* op : ops) {
    const double pessimistic = std::max(op->spec().flops / 10e12, op->spec().bytes / 200e9);
    seconds[op->id()] = o.op_timeout_s ? *o.op_timeout_s : (phase == "check" ? 120.0 : 60.0) + 100.0 * pessimistic;
  }
  return [seconds](const std::string& id) {
    auto it = seconds.find(id);
    return it != seconds.end() ? it->second : 600.0;
  };
}

// The header's account of how the timing phase measured.
std::string timing_method(const RunOptions& o, CudaGraphMode graph) {
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

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int run_command(const RunOptions& o) {
  if (is_stdout(o.json_path) && is_stdout(o.gbench_json_path)) {
    std::cerr << "archbench run: --json - and --gbench-json - cannot both write to stdout\n";
    return kUsage;
  }
  // With JSON on stdout, the report goes to stderr (json_output.hpp).
  const TextToStderr text_to_stderr(is_stdout(o.json_path) || is_stdout(o.gbench_json_path));
  std::vector<const Operator*> ops;
  try {
    ops = select_operators(o.filter, o.dtypes);
  } catch (const UsageError& e) {
    std::cerr << "archbench run: " << e.what() << "\n";
    return kUsage;
  }
  const std::optional<CudaGraphMode> graph = parse_cuda_graph_mode(o.cuda_graph);
  if (!graph) {
    std::cerr << "archbench run: --cuda-graph must be off, auto or all, not '" << o.cuda_graph << "'\n";
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
  const auto on_event = progress.listener();
  for (int index : devices) {
    DeviceReport dr;
    dr.device = report.environment.devices[static_cast<size_t>(index)];
    std::vector<std::string> ids;
    for (const auto* op : ops) {
      dr.operators.push_back(describe(*op));
      ids.push_back(op->id());
    }
    WorkerRequest request{"check", index, ids, seed, o.hot_l2, deadline_for(ops, o, "check"), ""};
    request.quick = o.quick;
    request.on_event = on_event;
    request.cuda_graph = o.cuda_graph;
    progress.begin_phase(index, "check", ids.size());
    auto phase_start = std::chrono::steady_clock::now();
    // The quick tier's check is CPU work at small shapes: several workers at once. A full check
    // keeps one, since its benchmark shapes can fill the device.
    const WorkerOutcome check = o.quick ? run_phase_parallel(request, quick_check_workers(dr.device.memory_bytes))
                                        : run_phase(request);
    progress.end_phase();
    dr.phase_seconds["check"] = seconds_since(phase_start);
    merge_phase(dr.operators, ids, check, "check");
    apply_error_oracle(dr.operators, registry());
    worker_failed |= !check.failure.empty();

    if (o.timing && !o.quick) {
      std::vector<std::string> timed;
      for (const auto& r : dr.operators) if (!r.failed() && r.correctness) timed.push_back(r.id);
      if (!timed.empty()) {
        request.phase = "time";
        request.ids = timed;
        request.deadline_s = deadline_for(ops, o, "time");
        progress.begin_phase(index, "time", timed.size());
        phase_start = std::chrono::steady_clock::now();
        const WorkerOutcome time = run_phase(request);
        progress.end_phase();
        dr.phase_seconds["time"] = seconds_since(phase_start);
        dr.ceilings = time.ceilings;
        merge_phase(dr.operators, timed, time, "time");
        worker_failed |= !time.failure.empty();
      }
    }
    std::cout << format_device_header(report.environment, dr, report.build)
              << text::wrap_fields({fmt::format("seed {}", seed), "check: CUDA_LAUNCH_BLOCKING=1 worker",
                                    timing_method(o, *graph)},
                                   " | ", text::kColumns, "", "  ")
              << "\n"
              << format_operator_table(dr);
    if (o.timing && *graph != CudaGraphMode::Off) std::cout << "\n" << text::wrap_text(graph_replay_line(dr));
    std::string phases;
    for (const auto& [phase, secs] : dr.phase_seconds) phases += fmt::format("{}{} {:.0f} s", phases.empty() ? "" : ", ", phase, secs);
    if (!phases.empty()) std::cout << "\nphases: " << phases << "\n";
    const std::string findings = format_findings(dr);
    if (!findings.empty()) std::cout << "\nfindings:\n" << findings;
    std::cout << "\n";
    report.devices.push_back(std::move(dr));
  }
  if (report.selection.narrowed()) std::cout << "selection: " << report.selection.describe() << "\n";
  std::cout << format_summary(report);

  if (!o.json_path.empty() || !o.gbench_json_path.empty()) {
    try {
      if (!o.json_path.empty()) write_output(o.json_path, report_to_json(report).dump(2) + "\n");
      if (!o.gbench_json_path.empty()) write_output(o.gbench_json_path, report_to_gbench_json(report).dump(1) + "\n");
    } catch (const std::exception& e) {
      std::cerr << "archbench run: " << e.what() << "\n";
      return kInternal;
    }
  }
  for (const auto& d : report.devices) {
    for (const auto& r : d.operators) if (r.failed()) return kOperatorFailed;
  }
  return worker_failed ? kInternal : kOk;
}

}  // namespace archbench::cli
