#include "harness/report/html_run_report.hpp"

#include "harness/result/result_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "harness/report/html_bar_chart.hpp"
#include "harness/report/html_escape.hpp"
#include "harness/report/html_heatmap.hpp"
#include "harness/report/html_page.hpp"
#include "harness/report/html_roofline.hpp"
#include "harness/report/path_summary.hpp"

namespace archbench::html {
namespace {

using nlohmann::json;

std::string json_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string key_value_table(const json& object) {
  std::string t = "<table class=\"kv\">";
  if (object.is_object()) {
    for (const auto& [k, v] : object.items()) {
      if (v.is_array() || v.is_object()) continue;  // nested parts get their own tables
      t += "<tr><th>" + escape(k) + "</th><td class=\"mono\">" + escape(json_text(v)) + "</td></tr>";
    }
  }
  return t + "</table>\n";
}

// The one-line header; the full manifest follows the findings (manifest()).
std::string header(const StoredRun& run, const StoredDevice& d) {
  const DeviceInfo& dev = d.results.device;
  const BuildManifest& b = run.build;
  auto or_unknown = [](const std::string& s) { return s.empty() ? std::string("?") : s; };
  const std::string ptx = arch::join_names(b.ptx());
  return fmt::format("<h1>archbench report: {} (CC {})</h1>\n<p class=\"note\">{} &middot; device key <code>{}</code> &middot; "
                     "arch list <code>{}</code> (SASS {}, PTX {}) &middot; driver CUDA {} &middot; revision {}</p>\n",
                     escape(or_unknown(dev.name)), escape(dev.cc.str()), escape(run.path), escape(d.results.key),
                     escape(or_unknown(b.arch_list)), escape(arch::join_names(b.sass())), escape(ptx.empty() ? "none" : ptx),
                     escape(run.environment.driver.str()), escape(or_unknown(b.git_revision)));
}

std::string manifest(const StoredRun& run, const StoredDevice& d) {
  std::string s = "<h2>Device and environment</h2>\n<h3>Device</h3>\n" + key_value_table(json(d.results.device));
  if (d.ceilings) {
    const auto& c = *d.ceilings;
    s += fmt::format("<h3>Measured ceilings</h3>\n<table><tr><th>f32</th><th>tf32</th><th>f16</th><th>bf16</th><th>DRAM</th></tr>"
                     "<tr><td class=\"num\">{:.1f} TFLOP/s</td><td class=\"num\">{:.0f} TFLOP/s</td><td class=\"num\">{:.0f} TFLOP/s</td>"
                     "<td class=\"num\">{:.0f} TFLOP/s</td><td class=\"num\">{:.0f} GB/s</td></tr></table>\n",
                     c.f32_tflops, c.tf32_tflops, c.f16_tflops, c.bf16_tflops, c.dram_gbps);
  }
  s += "<h3>Build manifest</h3>\n" + key_value_table(json(run.build));
  s += "<h3>Runtime environment</h3>\n" + key_value_table(json(run.environment));
  if (!run.environment.cuda_env.empty()) {
    s += "<h3>CUDA environment variables</h3>\n" + key_value_table(json(run.environment.cuda_env));
  }
  return s;
}

std::string what_failed(const OperatorResult& r) {
  if (r.fault != WorkerFault::None) return std::string(worker_fault_name(r.fault)) + ": " + r.error;
  if (!r.image.runs() && r.image.status != ImageOutcome::Unsupported) {
    return r.image.label + (r.image.cause.empty() ? "" : ": " + r.image.cause) + (r.image.fix.empty() ? "" : " Fix: " + r.image.fix);
  }
  if (!r.error.empty()) return r.error;
  if (!r.image.agrees) return "probe disagrees: " + r.image.disagreement;
  if (r.correctness && !r.correctness->passed) {
    return fmt::format("wrong result: rel. error {:.2e} (tolerance {:.0e})", r.correctness->rel_error, r.correctness->tolerance);
  }
  if (r.correctness && r.correctness->bench_shape_failed()) return "non-finite or unwritten output at the benchmark shape";
  return "failed";
}

std::string regressions(const StoredDevice& d, const DeviceResults* baseline, const Thresholds& th) {
  std::string rows;
  size_t n = 0;
  for (const auto& r : d.results.operators) {
    if (!r.failed()) continue;
    ++n;
    rows += fmt::format("<tr class=\"{}\"><td class=\"mono\">{}</td><td>failed</td><td>{}</td></tr>\n", status_class(operator_verdict(r)),
                        escape(r.id), escape(what_failed(r)));
  }
  if (baseline != nullptr) {
    // Operators of the baseline that this run lacks are one row, after the real changes, as in
    // `archbench compare`: a partial run would otherwise bury them under a row per operator.
    size_t absent = 0;
    for (const auto& c : compare_results(*baseline, d.results, th)) {
      if (!c.regression()) continue;
      ++n;
      if (c.change == Change::Absent) {
        ++absent;
        continue;
      }
      rows += fmt::format("<tr><td class=\"mono\">{}</td><td class=\"regression\">{}</td><td>{}</td></tr>\n", escape(c.id),
                          escape(std::string(change_name(c.change))), escape(c.detail));
    }
    if (absent > 0) {
      rows += fmt::format("<tr><td>{} operator(s)</td><td class=\"regression\">absent</td><td>in the baseline, not in this "
                          "run: each a regression. A run of part of the registry is judged against the same part with "
                          "<code>archbench compare --filter</code>; <code>--json</code> lists them</td></tr>\n",
                          absent);
    }
  }
  std::string s = "<h2 id=\"regressions\">Regressions and failures</h2>\n";
  s += baseline != nullptr ? "<p class=\"note\">Compared with the baseline of " + escape(baseline->key) + ".</p>\n"
                           : "<p class=\"note\">No baseline given for this device: failures only (archbench report --baseline).</p>\n";
  if (n == 0) return s + "<p>None.</p>\n";
  return s + "<table><tr><th>operator</th><th>change</th><th>detail</th></tr>\n" + rows + "</table>\n";
}

std::string heat_map(const StoredDevice& d) {
  HeatMap map;
  const auto dtypes = values_of(kDTypes);  // the columns, in the enum's order
  std::vector<bool> used(dtypes.size(), false);
  std::map<std::pair<size_t, size_t>, HeatCell> cells;
  std::vector<std::string> rows;
  for (const auto& r : d.results.operators) {
    const std::string row = r.family + "/" + r.name + "/" + r.shape;
    auto it = std::ranges::find(rows, row);
    const size_t ri = static_cast<size_t>(it - rows.begin());
    if (it == rows.end()) rows.push_back(row);
    const size_t ci = static_cast<size_t>(std::ranges::find(dtypes, r.dtype) - dtypes.begin());
    used[ci] = true;
    cells[{ri, ci}] = HeatCell{operator_verdict(r), r.id + ": " + r.image.label + (r.failed() ? " - " + what_failed(r) : "")};
  }
  // Only the dtypes present become columns.
  std::vector<size_t> remap(dtypes.size());
  for (size_t c = 0; c < dtypes.size(); ++c) {
    if (!used[c]) continue;
    remap[c] = map.columns.size();
    map.columns.emplace_back(dtype_name(dtypes[c]));
  }
  for (auto& [rc, cell] : cells) map.cells[{rc.first, remap[rc.second]}] = cell;
  map.rows = rows;
  std::string s = "<h2>Image verdicts</h2>\n<p class=\"legend\">";
  return s + status_legend() + "</p>\n" + svg_heatmap(map);
}

std::string bar_charts(const StoredDevice& d, const DeviceResults* baseline) {
  std::vector<std::string> families;
  for (const auto& r : d.results.operators) {
    if (std::ranges::find(families, r.family) == families.end()) families.push_back(r.family);
  }
  std::string s = "<h2>% of ceiling per family</h2>\n<p class=\"note\">Achieved / roofline bound from the ceilings measured in the same run";
  s += baseline != nullptr ? "; the black tick is the baseline's value.</p>\n" : ".</p>\n";
  for (const auto& family : families) {
    std::vector<Bar> bars;
    for (const auto& r : d.results.operators) {
      if (r.family != family || !r.timing) continue;
      Bar b{r.name + "/" + std::string(dtype_name(r.dtype)) + "/" + r.shape, r.timing->pct_of_ceiling, std::nullopt, dtype_color(r.dtype),
            fmt::format("{}: {:.1f}% of {} ({:.4f} ms)", r.id, r.timing->pct_of_ceiling, r.timing->ceiling, r.timing->median_ms)};
      if (baseline != nullptr) {
        auto it = std::ranges::find(baseline->operators, r.id, &OperatorResult::id);
        if (it != baseline->operators.end() && it->timing) b.marker = it->timing->pct_of_ceiling;
      }
      bars.push_back(std::move(b));
    }
    s += "<h3>" + escape(family) + "</h3>\n";
    s += bars.empty() ? "<p class=\"note\">No timed operators.</p>\n" : svg_bar_chart(bars, "%", 100);
  }
  return s;
}

std::string roofline(const StoredDevice& d) {
  std::string s = "<h2>Roofline</h2>\n";
  if (!d.ceilings) return s + "<p class=\"note\">No ceilings in these results (run without timing).</p>\n";
  const auto& c = *d.ceilings;
  std::vector<Roof> roofs;
  for (const auto& [dtype, tflops] : {std::pair{DType::F32, c.f32_tflops}, std::pair{DType::TF32, c.tf32_tflops},
                                      std::pair{DType::F16, c.f16_tflops}, std::pair{DType::BF16, c.bf16_tflops},
                                      std::pair{DType::E4M3, c.e4m3_tflops}}) {
    if (dtype == DType::E4M3 && tflops <= 0) continue;  // measured only on FP8 devices, for FP8 runs
    roofs.push_back({fmt::format("{} {:.0f} TFLOP/s", dtype_name(dtype), tflops), tflops, dtype_color(dtype)});
  }
  std::vector<RooflinePoint> points;
  for (const auto& r : d.results.operators) {
    if (!r.timing) continue;
    points.push_back({r.id, r.bytes > 0 ? r.flops / r.bytes : 0, r.timing->tflops, dtype_color(r.dtype)});
  }
  return s + "<p class=\"note\">Arithmetic intensity = the operator's FLOPs / its minimum DRAM bytes at the benchmark shape; "
             "roofs = min(measured peak, intensity &times; measured DRAM bandwidth).</p>\n" +
         svg_roofline(roofs, c.dram_gbps, points);
}

// Which own path a dispatcher would take per family and dtype, as the text report's "paths" lines.
std::string paths_table(const StoredDevice& d) {
  if (d.paths.empty()) return "";
  std::string s = "<h2>Which path runs</h2>\n<table><tr><th>family</th><th>dtype</th><th>chosen; the others</th></tr>\n";
  for (const auto& line : summarize_paths(d.paths)) {
    s += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", escape(line.family), dtype_name(line.dtype), escape(line.text()));
  }
  return s + "</table>\n<p class=\"note\">Per shape, the first of the family's own paths (Hopper wgmma, tensor-core "
             "mma.sync, SIMT) whose image runs here with a correct result; times are geometric means over the shapes of "
             "each path's median / the chosen path's.</p>\n";
}

std::string operator_table(const StoredDevice& d) {
  std::string s = "<h2>All operators</h2>\n<table><tr><th>operator</th><th>impl</th><th>image</th><th>check</th>"
                  "<th>ms</th><th>TFLOP/s</th><th>GB/s</th><th>% ceil</th></tr>\n";
  for (const auto& r : d.results.operators) {
    const std::string check = !r.correctness ? "-" : fmt::format("{} {:.1e}", r.correctness->passed ? "ok" : "WRONG", r.correctness->rel_error);
    s += fmt::format("<tr><td class=\"mono\">{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td>", escape(r.id), impl_name(r.impl),
                     status_class(operator_verdict(r)), escape(r.image.label), escape(check));
    if (r.timing) {
      s += fmt::format("<td class=\"num\">{:.4f}</td><td class=\"num\">{:.1f}</td><td class=\"num\">{:.0f}</td><td class=\"num\">{:.0f}%</td></tr>\n",
                       r.timing->median_ms, r.timing->tflops, r.timing->gbps, r.timing->pct_of_ceiling);
    } else {
      s += "<td></td><td></td><td></td><td></td></tr>\n";
    }
  }
  return s + "</table>\n";
}

}  // namespace

std::string dtype_color(DType dtype) {
  switch (dtype) {
    case DType::F32: return "#4e79a7";
    case DType::TF32: return "#9c6ade";
    case DType::F16: return "#f28e2b";
    case DType::BF16: return "#3aa39a";
    case DType::E4M3: return "#e15759";
    case DType::E5M2: return "#b07aa1";
  }
  return "#8c959f";
}

std::string baseline_slot(const StoredDevice& d) {
  const std::string& uuid = d.results.device.uuid;
  return uuid.empty() ? d.results.key : uuid;
}

std::string run_report_page(const RunReportInputs& in) {
  std::string body;
  std::string title = "archbench report";
  for (const auto& d : in.run->devices) {
    auto b = in.baselines.find(baseline_slot(d));
    const DeviceResults* baseline = b == in.baselines.end() ? nullptr : &b->second;
    title += " - " + (d.results.device.name.empty() ? std::string("?") : d.results.device.name);
    body += "<section class=\"device\">\n" + header(*in.run, d) + regressions(d, baseline, in.thresholds) + heat_map(d) + paths_table(d) +
            bar_charts(d, baseline) + roofline(d) + manifest(*in.run, d) + operator_table(d) + "</section>\n";
  }
  return page(title, body);
}

}  // namespace archbench::html
