#include "harness/baseline/baseline_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/baseline/statistics.hpp"
#include "harness/util/quantile.hpp"
#include "harness/result/result_json.hpp"
#include "harness/result/timing_summary.hpp"
#include "harness/util/atomic_file.hpp"

namespace archbench {
namespace {

using nlohmann::json;

json read_json(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw StoredFileError("cannot read " + path + ": " + ec.message());
  if (size > kMaxStoredFileBytes) {
    throw StoredFileError(path + " is " + std::to_string(size) + " bytes, over the " +
                          std::to_string(kMaxStoredFileBytes) + "-byte limit for stored results");
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw StoredFileError("cannot read " + path);
  try {
    return json::parse(f);
  } catch (const json::exception& e) {  // parse errors, and numbers that overflow (out_of_range)
    throw StoredFileError(path + " is not valid JSON (corrupt or truncated): " + e.what());
  }
}

void expect_schema(const json& j, const std::string& path, const char* schema, int version) {
  if (!j.is_object() || !j.contains("schema") || j["schema"] != schema) {
    throw StoredFileError(path + " is not an " + std::string(schema) + " file (field \"schema\")");
  }
  if (!j.contains("schema_version") || !j["schema_version"].is_number_integer() || j["schema_version"] != version) {
    throw StoredFileError(path + ": schema_version " + (j.contains("schema_version") ? j["schema_version"].dump() : "missing") +
                          ", this archbench reads version " + std::to_string(version));
  }
}

std::vector<OperatorResult> read_operators(const json& ops, const std::string& path) {
  std::vector<OperatorResult> out;
  for (const auto& o : ops) {
    try {
      out.push_back(o.get<OperatorResult>());
    } catch (const json::exception& e) {
      throw StoredFileError(path + ": operator " + (o.contains("id") ? o["id"].dump() : "?") + " is malformed: " + e.what());
    }
  }
  return out;
}

}  // namespace

std::string device_key(const std::string& name, const std::string& cc, size_t memory_bytes) {
  std::string slug;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) slug += static_cast<char>(std::tolower(u));
    else if (!slug.empty() && slug.back() != '-') slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  std::string ccd;
  for (char c : cc) if (c != '.') ccd += c;
  const auto gib = static_cast<unsigned long long>((static_cast<double>(memory_bytes) / (1ull << 30)) + 0.5);
  return slug + "-cc" + ccd + "-" + std::to_string(gib) + "g";
}

std::vector<DeviceResults> load_run_results(const std::string& path) {
  const json j = read_json(path);
  expect_schema(j, path, "archbench.run", kRunSchemaVersion);
  std::vector<DeviceResults> out;
  try {
    for (const auto& d : j.at("devices")) {
      DeviceResults r;
      const json& device = d.at("device");
      r.key = device_key(device.at("name"), device.at("cc"), device.at("memory_bytes"));
      r.device = device.get<DeviceInfo>();
      r.build = j.at("build").get<BuildManifest>();
      r.operators = read_operators(d.at("operators"), path);
      if (const auto c = d.value("ceilings", json()); c.is_object()) {
        if (const double floor = c.value("timer_floor_ms", 0.0); floor > 0) r.timer_floor_ms = floor;
      }
      if (const auto s = j.value("selection", json()); s.is_object()) {
        r.selection = Selection{s.at("filter").get<std::string>(), s.at("dtypes").get<std::vector<std::string>>(),
                                s.at("selected").get<size_t>(), s.at("registered").get<size_t>()};
      }
      out.push_back(std::move(r));
    }
  } catch (const json::exception& e) {
    throw StoredFileError(path + ": missing or malformed field: " + e.what());
  }
  if (out.empty()) throw StoredFileError(path + " holds no device results (was there a GPU?)");
  return out;
}

namespace {

// When every run measured its timer floor, each run's single-launch samples are moved to the
// runs' median floor before pooling: runs from several hosts of one product (whose fixed
// per-launch overhead differs by microseconds) then describe one machine, not a mixture.
std::vector<DeviceResults> on_common_floor(const std::vector<DeviceResults>& runs, std::optional<double>& floor) {
  floor.reset();
  if (!std::ranges::all_of(runs, [](const DeviceResults& r) { return r.timer_floor_ms.has_value(); })) return runs;
  std::vector<double> floors;
  for (const auto& r : runs) floors.push_back(*r.timer_floor_ms);
  floor = median(floors);
  std::vector<DeviceResults> moved = runs;
  for (auto& run : moved) {
    for (auto& op : run.operators) {
      if (op.timing) op.timing = with_floor_moved(*op.timing, *floor - *run.timer_floor_ms);
    }
  }
  return moved;
}

}  // namespace

DeviceResults merge_runs(const std::vector<DeviceResults>& original_runs) {
  if (original_runs.empty()) throw StoredFileError("no runs to merge");
  std::optional<double> common_floor;
  const std::vector<DeviceResults> runs = on_common_floor(original_runs, common_floor);
  DeviceResults merged = runs.front();
  for (auto& op : merged.operators) {
    if (op.timing) op.timing->run_medians_ms = {op.timing->median_ms};
  }
  for (size_t i = 1; i < runs.size(); ++i) {
    const auto& run = runs[i];
    if (run.key != merged.key) throw StoredFileError("cannot pool runs of " + merged.key + " and " + run.key);
    if (auto diff = build_difference(merged.build, run.build); !diff.empty()) {
      throw StoredFileError("cannot pool runs of different builds: " + diff);
    }
    for (auto& op : merged.operators) {
      auto it = std::find_if(run.operators.begin(), run.operators.end(), [&](const OperatorResult& o) { return o.id == op.id; });
      if (it == run.operators.end() || !it->timing || !op.timing) continue;
      auto& t = *op.timing;
      const auto& u = *it->timing;
      // CUDA-graph replay and single launches measure different times: never pooled into one.
      if ((t.mode == LaunchMode::Graph) != (u.mode == LaunchMode::Graph)) {
        throw StoredFileError(fmt::format(
            "cannot pool runs that timed {} differently ({} in the first run, {} in run {}): use one --cuda-graph "
            "setting for every run of a baseline (with auto, an operator near its threshold can switch; use all or off)",
            op.id, launch_mode_name(t.mode), launch_mode_name(u.mode), i + 1));
      }
      t.samples_ms.insert(t.samples_ms.end(), u.samples_ms.begin(), u.samples_ms.end());
      t.sm_mhz.insert(t.sm_mhz.end(), u.sm_mhz.begin(), u.sm_mhz.end());
      t.event_reasons.insert(t.event_reasons.end(), u.event_reasons.begin(), u.event_reasons.end());
      t.run_medians_ms.push_back(u.median_ms);
    }
  }
  for (auto& op : merged.operators) {
    if (op.timing) summarize(*op.timing);
  }
  // The floor of a pool is known only if every run measured one: a median over some runs would
  // describe other processes than the samples.
  merged.timer_floor_ms = common_floor;
  merged.run_timer_floors_ms.clear();
  if (common_floor) {
    for (const auto& run : original_runs) merged.run_timer_floors_ms.push_back(*run.timer_floor_ms);
  }
  return merged;
}

DeviceResults load_baseline(const std::string& path) { return baseline_from_json(read_json(path), path); }

DeviceResults baseline_from_json(const json& j, const std::string& path) {
  expect_schema(j, path, "archbench.baseline", kBaselineSchemaVersion);
  DeviceResults r;
  try {
    r.key = j.at("device_key");
    const json& device = j.at("device");
    r.device = device.get<DeviceInfo>();
    r.build = j.at("build").get<BuildManifest>();
    r.operators = read_operators(j.at("operators"), path);
    if (j.contains("timer_floor")) {
      const json& f = j.at("timer_floor");
      const double median = f.at("median_ms").get<double>();
      // A floor is microseconds; anything outside (0, 1000 ms) is a damaged file, not a machine.
      if (!(median > 0 && median < 1000)) throw StoredFileError(path + ": timer_floor.median_ms " + f.at("median_ms").dump() + " is not a plausible floor");
      r.timer_floor_ms = median;
      r.run_timer_floors_ms = f.value("run_floors_ms", std::vector<double>{});
    }
    const std::string expected = device_key(device.at("name"), device.at("cc"), device.at("memory_bytes"));
    if (expected != r.key) throw StoredFileError(path + ": device_key \"" + r.key + "\" does not match its device (" + expected + ")");
  } catch (const json::exception& e) {
    throw StoredFileError(path + ": missing or malformed field: " + e.what());
  }
  return r;
}

json baseline_json(const DeviceResults& d) {
  json j{{"schema", "archbench.baseline"}, {"schema_version", kBaselineSchemaVersion}, {"device_key", d.key},
         {"device", d.device}, {"build", d.build}, {"operators", d.operators}};
  if (d.timer_floor_ms) j["timer_floor"] = {{"median_ms", *d.timer_floor_ms}, {"run_floors_ms", d.run_timer_floors_ms}};
  return j;
}

void save_baseline(const std::string& path, const DeviceResults& d) {
  write_file_atomically(path, baseline_json(d).dump(1) + "\n");
}

std::string baseline_path_in(const std::string& dir, const std::string& device_key) {
  return (std::filesystem::path(dir) / (device_key + ".json")).string();
}

std::string runner_baseline_path_in(const std::string& dir, const std::string& device_key, const std::string& uuid) {
  return (std::filesystem::path(dir) / (device_key + "@" + uuid + ".json")).string();
}

std::string baseline_for_device_in(const std::string& dir, const std::string& device_key, const std::string& uuid) {
  if (!uuid.empty()) {
    const std::string own = runner_baseline_path_in(dir, device_key, uuid);
    if (std::filesystem::exists(own)) return own;
  }
  return baseline_path_in(dir, device_key);
}

std::string build_difference(const BuildManifest& a, const BuildManifest& b) {
  const json ja = a, jb = b;  // compared as written: the targets by their names
  std::string diff;
  for (const char* field : {"arch_list", "sass", "ptx", "nvcc"}) {
    const json va = ja.value(field, json()), vb = jb.value(field, json());
    if (va != vb) diff += std::string(diff.empty() ? "" : "; ") + field + " " + va.dump() + " vs " + vb.dump();
  }
  return diff;
}

}  // namespace archbench
