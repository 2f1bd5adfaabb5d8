#include "harness/report/console.hpp"

#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "harness/report/path_summary.hpp"
#include "harness/util/text_wrap.hpp"

namespace archbench {
namespace {

std::string check_cell(const OperatorResult& r) {
  if (r.fault != WorkerFault::None) return std::string(worker_fault_name(r.fault));  // context-lost, crashed, hung
  if (!r.correctness) return r.error.empty() ? "-" : "error";
  const auto& c = *r.correctness;
  if (c.non_finite > 0) return fmt::format("FAIL {} NaN/Inf", c.non_finite);
  if (c.bench_shape_failed()) return fmt::format("FAIL full-shape NaN ({:.1e})", c.rel_error);
  return fmt::format("{} {:.1e}", c.passed ? "ok" : "FAIL", c.rel_error);
}

}  // namespace

std::string format_build_line(const BuildManifest& m) {
  auto or_none = [](const std::string& s) { return s.empty() ? std::string("none") : s; };
  std::vector<std::string> fields{
      fmt::format("build: arch list \"{}\" ({}) -> SASS {}", m.arch_list, m.arch_list_source,
                  or_none(arch::join_names(m.sass()))),
      "PTX " + or_none(arch::join_names(m.ptx()))};
  if (!m.kernel_arch_overrides.empty()) fields.push_back("overrides " + m.kernel_arch_overrides);
  fields.push_back("nvcc " + m.nvcc_version);
  fields.push_back(m.git_revision);
  return text::wrap_fields(fields, " | ", text::kColumns, "", "  ");
}

std::string format_device_header(const Environment& env, const DeviceReport& d, const BuildManifest& m) {
  std::string s = fmt::format("archbench {} | driver CUDA {} | runtime CUDA {}\n", m.archbench_version, env.driver.str(),
                              env.runtime.str());
  s += format_build_line(m);
  s += fmt::format("device {}: {} | CC {} | {} SMs | {:.1f} GiB | L2 {} MiB\n", d.device.index, d.device.name,
                   d.device.cc.str(), d.device.sm_count, static_cast<double>(d.device.memory_bytes) / (1 << 30),
                   d.device.l2_bytes >> 20);
  if (d.ceilings) {
    const auto& c = *d.ceilings;
    std::vector<std::string> fields{fmt::format("ceilings (measured): cuBLAS f32 {:.1f}", c.f32_tflops),
                                    fmt::format("tf32 {:.0f}", c.tf32_tflops), fmt::format("f16 {:.0f}", c.f16_tflops),
                                    fmt::format("bf16 {:.0f}", c.bf16_tflops)};
    // cuBLASLt's FP8 GEMM, measured only for a run with FP8 operators on a device with FP8 tensor cores.
    if (c.e4m3_tflops > 0) fields.push_back(fmt::format("e4m3 {:.0f}", c.e4m3_tflops));
    fields.back() += " TFLOP/s";
    fields.push_back(fmt::format("copy {:.0f} GB/s", c.dram_gbps));
    if (c.timer_floor_ms > 0) fields.push_back(fmt::format("timer floor {:.2f} us", c.timer_floor_ms * 1e3));
    s += text::wrap_fields(fields, " | ", text::kColumns, "", "  ");
  }
  return s;
}

std::string format_operator_table(const DeviceReport& d) {
  // The family heads its group of rows instead of taking a column; long shapes, image labels and
  // check cells wrap inside their column so that a row never passes 120 columns (ids in JSON).
  text::Table table({{"operator"},
                     {"dtype"},
                     {"shape", false, true, 12},
                     {"impl"},
                     {"image", false, true, 12},
                     {"check", false, true, 10},
                     {"time ms", true},
                     {"TFLOP/s", true},
                     {"%ceil", true}},
                    "  ");
  std::string family;
  for (const auto& r : d.operators) {
    if (r.family != family || &r == &d.operators.front()) table.add_group(r.family);
    family = r.family;
    std::string time = "-", tflops = "-", pct = "-";
    if (r.timing) {
      time = fmt::format("{:.3f}", r.timing->median_ms);
      tflops = fmt::format("{:.1f}", r.timing->tflops);
      pct = fmt::format("{:.0f}%", r.timing->pct_of_ceiling);
    }
    std::string image = r.image.label + (r.image.agrees ? "" : " (!)");
    table.add_row({r.name, std::string(dtype_name(r.dtype)), r.shape, std::string(impl_name(r.impl)), image, check_cell(r),
                   time, tflops, pct});
  }
  return table.render();
}

std::string format_findings(const DeviceReport& d) {
  // Group identical causes: a build missing sm_90 misses it for every own kernel alike.
  std::map<std::string, std::vector<std::string>> by_cause;
  std::vector<std::string> order;
  for (const auto& r : d.operators) {
    std::string key;
    if (!r.image.agrees) key = "image probe disagrees with the static prediction: " + r.image.disagreement;
    else if (r.image.status != ImageOutcome::Sass && r.image.status != ImageOutcome::Library && !r.image.cause.empty())
      key = r.image.label + ": " + r.image.cause + (r.image.fix.empty() ? "" : "\n    fix: " + r.image.fix);
    else if (r.fault != WorkerFault::None) key = std::string(worker_fault_name(r.fault)) + ": " + r.error + "\n    (the worker was replaced; the run went on)";
    else if (!r.error.empty()) key = "error: " + r.error;
    else if (r.correctness && r.correctness->twin_rel_error && !r.correctness->passed &&
             r.correctness->rel_error <= r.correctness->tolerance)
      key = fmt::format("less accurate than its library twin: rel. error {:.2e} > {} x {:.2e} of {} on the same inputs",
                        r.correctness->rel_error, kOracleFactor, *r.correctness->twin_rel_error, r.correctness->twin_id);
    else if (r.correctness && !r.correctness->correct())
      key = fmt::format("wrong result: rel. error {:.2e} > tolerance {:.0e}, {} non-finite of {} (check shape {}){}",
                        r.correctness->rel_error, r.correctness->tolerance, r.correctness->non_finite,
                        r.correctness->elements, r.correctness->check_shape,
                        r.correctness->bench_shape_failed() ? "; full shape has unwritten or non-finite elements" : "");
    else if (r.timing && !r.timing->graph_fallback.empty())
      key = "timed by single launches, not CUDA-graph replay: " + r.timing->graph_fallback;
    else if (r.timing && !r.timing->hold_fallback.empty())
      key = "timed without holding the stream: " + r.timing->hold_fallback;
    if (key.empty() && !r.image.note.empty()) key = "note: " + r.image.note;
    if (key.empty()) continue;
    if (!by_cause.contains(key)) order.push_back(key);
    by_cause[key].push_back(r.id);
  }
  std::string s;
  for (const auto& key : order) {
    const auto& ids = by_cause[key];
    s += text::wrap_text(fmt::format("- {} operator(s): {}{}\n    {}\n", ids.size(), ids.front(),
                                     ids.size() > 1 ? fmt::format(" and {} more", ids.size() - 1) : "", key));
  }
  return s;
}

std::string format_paths(const DeviceReport& d) {
  std::string s;
  for (const auto& line : summarize_paths(d.paths)) {
    // Wrapped between paths, never inside one ("1.05x" and "faster" stay together).
    std::vector<std::string> fields{fmt::format("{} {}: {}{}", line.family, dtype_name(line.dtype), line.chosen, line.others.empty() ? "" : ";")};
    for (size_t i = 0; i < line.others.size(); ++i) fields.push_back(line.others[i] + (i + 1 < line.others.size() ? "," : ""));
    s += text::wrap_fields(fields, " ", text::kColumns, "  ", "    ");
  }
  return s.empty() ? s : "paths:\n" + s;
}

std::string format_summary(const RunReport& r) {
  std::map<std::string, int> status;
  int failed = 0, total = 0, wrong = 0;
  for (const auto& d : r.devices) {
    for (const auto& o : d.operators) {
      ++total;
      ++status[std::string(outcome_name(o.image.status))];
      if (o.failed()) ++failed;
      if (o.correctness && !o.correctness->passed) ++wrong;
    }
  }
  std::string parts;
  for (const auto& [k, v] : status) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", v, k);
  return fmt::format("summary: {} operator runs: {}; {} wrong result(s); {} failed -> {}\n", total, parts, wrong, failed,
                     failed == 0 ? "PASS" : "FAIL");
}

}  // namespace archbench
