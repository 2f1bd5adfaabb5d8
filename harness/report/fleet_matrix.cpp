#include "harness/report/fleet_matrix.hpp"

#include "harness/result/result_json.hpp"

#include <fmt/format.h>

#include <algorithm>


namespace archbench {
namespace {

FleetCell make_cell(const OperatorResult& r) {
  FleetCell c;
  c.image = r.image.status;
  c.image_label = r.image.label;
  c.verdict = operator_verdict(r);
  c.check = !r.correctness ? CellCheck::NotChecked : (r.correctness->correct() ? CellCheck::Ok : CellCheck::Wrong);
  if (r.correctness) c.rel_error = r.correctness->rel_error;
  if (r.timing) {
    c.pct_of_ceiling = r.timing->pct_of_ceiling;
    c.median_ms = r.timing->median_ms;
    c.tflops = r.timing->tflops;
  }
  c.failed = r.failed();
  if (c.failed) {
    if (r.fault != WorkerFault::None) c.problem = std::string(worker_fault_name(r.fault)) + ": " + r.error;
    else if (!r.error.empty()) c.problem = r.error;
    else if (c.check == CellCheck::Wrong) c.problem = fmt::format("wrong result (rel. error {:.2e})", r.correctness->rel_error);
    else c.problem = r.image.label + (r.image.cause.empty() ? "" : ": " + r.image.cause);
  }
  return c;
}

}  // namespace

bool FleetRow::any_problem() const {
  return std::ranges::any_of(cells, [](const auto& c) { return c && (c->failed || c->regression); });
}

FleetMatrix build_fleet_matrix(const std::vector<StoredRun>& runs, const std::map<std::string, FleetBaseline>& baselines,
                               const Thresholds& thresholds) {
  FleetMatrix m;
  std::map<std::string, size_t> row_of;
  std::map<std::string, int> key_seen;
  size_t total_devices = 0;
  for (const auto& run : runs) total_devices += run.devices.size();
  for (const auto& run : runs) {
    for (const auto& d : run.devices) {
      const size_t col = m.devices.size();
      FleetDevice dev;
      dev.key = d.results.key;
      const int n = ++key_seen[dev.key];
      dev.column = n == 1 ? dev.key : fmt::format("{}#{}", dev.key, n);
      dev.name = d.results.device.name.empty() ? "?" : d.results.device.name;
      dev.cc = d.results.device.cc.str();
      dev.source = run.path;
      dev.build = run.build;
      dev.operators = d.results.operators.size();
      std::map<std::string, const Comparison*> change_of;
      std::vector<Comparison> comparisons;
      if (auto b = baselines.find(dev.key); b != baselines.end()) {
        dev.baseline = b->second.path;
        comparisons = compare_results(b->second.results, d.results, thresholds);
        for (const auto& c : comparisons) change_of[c.id] = &c;
      }
      for (const auto& r : d.results.operators) {
        auto [it, inserted] = row_of.try_emplace(r.id, m.rows.size());
        if (inserted) {
          m.rows.push_back({r.id, r.family, r.name, r.dtype, r.shape, r.impl, {}});
          m.rows.back().cells.resize(total_devices);
        }
        FleetCell cell = make_cell(r);
        if (!dev.baseline.empty()) {
          auto c = change_of.find(r.id);
          if (c != change_of.end()) {
            cell.change = c->second->change;
            cell.regression = c->second->regression();
            cell.effect = c->second->effect;
            cell.change_detail = c->second->detail;
          }
        }
        ++dev.verdicts[std::string(cell.verdict.name())];
        dev.failed += cell.failed ? 1 : 0;
        dev.regressions += cell.regression ? 1 : 0;
        m.rows[it->second].cells[col] = std::move(cell);
      }
      // Operators in the baseline but absent now are regressions too: a row of their own.
      for (const auto& c : comparisons) {
        if (c.change != Change::Absent) continue;
        auto [it, inserted] = row_of.try_emplace(c.id, m.rows.size());
        if (inserted) {
          const auto& b = baselines.at(dev.key).results;
          const auto& op = *std::ranges::find(b.operators, c.id, &OperatorResult::id);
          m.rows.push_back({op.id, op.family, op.name, op.dtype, op.shape, op.impl, {}});
          m.rows.back().cells.resize(total_devices);
        }
        FleetCell cell;
        cell.verdict.outcome = OperatorVerdict::Outcome::Absent;
        cell.change = Change::Absent;
        cell.regression = true;
        cell.change_detail = c.detail;
        ++dev.regressions;
        m.rows[it->second].cells[col] = std::move(cell);
      }
      m.devices.push_back(std::move(dev));
    }
  }
  return m;
}

nlohmann::json fleet_to_json(const FleetMatrix& m) {
  using nlohmann::json;
  json devices = json::array();
  for (const auto& d : m.devices) {
    devices.push_back({{"column", d.column}, {"device_key", d.key}, {"name", d.name}, {"cc", d.cc}, {"source", d.source},
                       {"build", json(d.build)}, {"baseline", d.baseline.empty() ? json(nullptr) : json(d.baseline)},
                       {"operators", d.operators}, {"failed", d.failed}, {"regressions", d.regressions}, {"verdicts", d.verdicts}});
  }
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  json rows = json::array();
  for (const auto& r : m.rows) {
    json cells = json::object();
    for (size_t i = 0; i < r.cells.size(); ++i) {
      if (!r.cells[i]) continue;
      const auto& c = *r.cells[i];
      cells[m.devices[i].column] = {{"image", outcome_name(c.image)}, {"image_label", c.image_label}, {"verdict", c.verdict.name()},
                                    {"correctness", name_of(kCellChecks, c.check)}, {"rel_error", opt(c.rel_error)},
                                    {"pct_of_ceiling", opt(c.pct_of_ceiling)}, {"median_ms", opt(c.median_ms)},
                                    {"tflops", opt(c.tflops)}, {"failed", c.failed}, {"problem", c.problem},
                                    {"change", c.change ? json(change_name(*c.change)) : json(nullptr)}, {"regression", c.regression},
                                    {"effect", c.effect}, {"change_detail", c.change_detail}};
    }
    rows.push_back({{"id", r.id}, {"family", r.family}, {"name", r.name}, {"dtype", dtype_name(r.dtype)}, {"shape", r.shape},
                    {"impl", impl_name(r.impl)}, {"cells", cells}});
  }
  return {{"schema", "archbench.fleet"}, {"schema_version", kFleetSchemaVersion}, {"devices", devices}, {"operators", rows}};
}

}  // namespace archbench
