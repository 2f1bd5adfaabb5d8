#include "harness/report/console.hpp"

#include <vector>
#include <string>
#include <fmt/format.h>

#include <map>

namespace archbench {
namespace {

std::string check_cell(const OperatorResult& r) {
  if (!r.fault.empty()) return r.fault;  // context-lost, crashed, hung
  if (!r.correctness) return r.error.empty() ? "-" : "error";
  const auto& c = *r.correctness;
  if (c.non_finite > 0) return fmt::format("FAIL {} NaN/Inf", c.non_finite);
  if (!c.bench_shape_finite) return fmt::format("FAIL full-shape NaN ({:.1e})", c.rel_error);
  return fmt::format("{} {:.1e}", c.passed ? "ok" : "FAIL", c.rel_error);
}

}  // namespace

std::string format_build_line(const BuildManifest& m) {
  auto or_none = [](const std::string& s) { return s.empty() ? std::string("none") : s; };
  return fmt::format("build: arch list \"{}\" ({}) -> SASS {} | PTX {}{} | nvcc {} | {}\n", m.arch_list,
                     m.arch_list_source, or_none(arch::join_names(m.sass())), or_none(arch::join_names(m.ptx())),
                     m.kernel_arch_overrides.empty() ? "" : " | overrides " + m.kernel_arch_overrides, m.nvcc_version,
                     m.git_revision);
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
    s += fmt::format("ceilings (measured): cuBLAS f32 {:.1f} | tf32 {:.0f} | f16 {:.0f} | bf16 {:.0f} TFLOP/s | copy {:.0f} GB/s",
                     c.f32_tflops, c.tf32_tflops, c.f16_tflops, c.bf16_tflops, c.dram_gbps);
    s += c.timer_floor_ms > 0 ? fmt::format(" | timer floor {:.2f} us\n", c.timer_floor_ms * 1e3) : std::string("\n");
  }
  return s;
}

std::string format_operator_table(const DeviceReport& d) {
  std::string s = fmt::format("{:<7} {:<12} {:<5} {:<19} {:<7} {:<26} {:<17} {:>9} {:>8} {:>6}\n", "family", "operator",
                              "dtype", "shape", "impl", "image", "check (rel err)", "time ms", "TFLOP/s", "%ceil");
  for (const auto& r : d.operators) {
    std::string time = "-", tflops = "-", pct = "-";
    if (r.timing) {
      time = fmt::format("{:.3f}", r.timing->median_ms);
      tflops = fmt::format("{:.1f}", r.timing->tflops);
      pct = fmt::format("{:.0f}%", r.timing->pct_of_ceiling);
    }
    std::string image = r.image.label + (r.image.agrees ? "" : " (!)");
    s += fmt::format("{:<7} {:<12} {:<5} {:<19} {:<7} {:<26} {:<17} {:>9} {:>8} {:>6}\n", r.family, r.name, r.dtype,
                     r.shape, r.impl, image, check_cell(r), time, tflops, pct);
  }
  return s;
}

std::string format_findings(const DeviceReport& d) {
  // Group identical causes: a build missing sm_90 misses it for every own kernel alike.
  std::map<std::string, std::vector<std::string>> by_cause;
  std::vector<std::string> order;
  for (const auto& r : d.operators) {
    std::string key;
    if (!r.image.agrees) key = "image probe disagrees with the static prediction: " + r.image.disagreement;
    else if (r.image.status != "sass" && r.image.status != "library" && !r.image.cause.empty())
      key = r.image.label + ": " + r.image.cause + (r.image.fix.empty() ? "" : "\n    fix: " + r.image.fix);
    else if (!r.fault.empty()) key = r.fault + ": " + r.error + "\n    (the worker was replaced; the run went on)";
    else if (!r.error.empty()) key = "error: " + r.error;
    else if (r.correctness && r.correctness->twin_rel_error && !r.correctness->passed &&
             r.correctness->rel_error <= r.correctness->tolerance)
      key = fmt::format("less accurate than its library twin: rel. error {:.2e} > {} x {:.2e} of {} on the same inputs",
                        r.correctness->rel_error, kOracleFactor, *r.correctness->twin_rel_error, r.correctness->twin_id);
    else if (r.correctness && !(r.correctness->passed && r.correctness->bench_shape_finite))
      key = fmt::format("wrong result: rel. error {:.2e} > tolerance {:.0e}, {} non-finite of {} (check shape {}){}",
                        r.correctness->rel_error, r.correctness->tolerance, r.correctness->non_finite,
                        r.correctness->elements, r.correctness->check_shape,
                        r.correctness->bench_shape_finite ? "" : "; full shape has unwritten or non-finite elements");
    else if (r.timing && !r.timing->graph_fallback.empty())
      key = "timed by single launches, not CUDA-graph replay: " + r.timing->graph_fallback;
    if (key.empty() && !r.image.note.empty()) key = "note: " + r.image.note;
    if (key.empty()) continue;
    if (!by_cause.contains(key)) order.push_back(key);
    by_cause[key].push_back(r.id);
  }
  std::string s;
  for (const auto& key : order) {
    const auto& ids = by_cause[key];
    s += fmt::format("- {} operator(s): {}{}\n    {}\n", ids.size(), ids.front(),
                     ids.size() > 1 ? fmt::format(" and {} more", ids.size() - 1) : "", key);
  }
  return s;
}

std::string format_summary(const RunReport& r) {
  std::map<std::string, int> status;
  int failed = 0, total = 0, wrong = 0;
  for (const auto& d : r.devices) {
    for (const auto& o : d.operators) {
      ++total;
      ++status[o.image.status];
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
