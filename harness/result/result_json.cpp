#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include "harness/result/result_json.hpp"

namespace archbench {

using nlohmann::json;

namespace {

// A field whose value this archbench does not know: a json exception, as every other malformed
// field gives (the loaders name the file and the operator).
[[noreturn]] void reject_field(const json& j, const std::string& what) {
#if NLOHMANN_JSON_VERSION_MAJOR > 3 || (NLOHMANN_JSON_VERSION_MAJOR == 3 && NLOHMANN_JSON_VERSION_MINOR >= 11)
  throw json::other_error::create(501, what, &j);
#else
  throw json::other_error::create(501, what, j);
#endif
}

// The enum a field names (image.status, timing.mode, ...): `parse` reads the name; one it does not
// know is rejected with the field, the value and every name of `all`.
template <typename Enum, size_t N>
Enum read_enum(const json& j, const char* key, std::string_view field, std::optional<Enum> (*parse)(std::string_view),
               std::string_view (*name)(Enum), const std::array<Enum, N>& all) {
  const auto value = j.at(key).get<std::string>();
  if (const auto e = parse(value)) return *e;
  std::string known;
  for (Enum e : all) known += (known.empty() ? "'" : ", '") + std::string(name(e)) + "'";
  reject_field(j, std::string(field) + " is '" + value + "', not one of " + known);
}

}  // namespace

void to_json(json& j, const ImageResult& r) {
  j = json{{"status", image_verdict_name(r.status)}, {"label", r.label}, {"cause", r.cause}, {"fix", r.fix},
           {"agrees", r.agrees}, {"disagreement", r.disagreement}, {"note", r.note}, {"kernels", json::array()}};
  for (const auto& k : r.kernels) {
    j["kernels"].push_back({{"name", k.name}, {"label", k.label}, {"runtime_error", k.runtime_error},
                            {"binary_version", k.binary_version}, {"ptx_version", k.ptx_version}});
  }
}

void from_json(const json& j, ImageResult& r) {
  r.status = read_enum(j, "status", "image.status", parse_image_verdict, image_verdict_name, kImageVerdicts);
  j.at("label").get_to(r.label);
  j.at("cause").get_to(r.cause);
  j.at("fix").get_to(r.fix);
  j.at("agrees").get_to(r.agrees);
  j.at("disagreement").get_to(r.disagreement);
  r.note = j.value("note", "");
  for (const auto& k : j.at("kernels")) {
    r.kernels.push_back({k.at("name"), k.at("label"), k.at("runtime_error"), k.at("binary_version"), k.at("ptx_version")});
  }
}

void to_json(json& j, const CorrectnessResult& r) {
  j = json{{"passed", r.passed}, {"check_shape", r.check_shape}, {"rel_error", r.rel_error},
           {"max_abs_error", r.max_abs_error}, {"tolerance", r.tolerance}, {"non_finite", r.non_finite},
           {"elements", r.elements}, {"bench_shape_finite", r.bench_shape_finite}, {"seed", r.seed},
           {"mode", launch_mode_name(r.mode)}};
  j["twin"] = r.twin_rel_error ? json{{"id", r.twin_id}, {"rel_error", *r.twin_rel_error}} : json(nullptr);
  // Written only for a quick check, so files from full runs stay as they were.
  if (r.scope == CheckScope::Quick) j["scope"] = check_scope_name(r.scope);
}

void from_json(const json& j, CorrectnessResult& r) {
  j.at("passed").get_to(r.passed);
  j.at("check_shape").get_to(r.check_shape);
  j.at("rel_error").get_to(r.rel_error);
  j.at("max_abs_error").get_to(r.max_abs_error);
  j.at("tolerance").get_to(r.tolerance);
  j.at("non_finite").get_to(r.non_finite);
  j.at("elements").get_to(r.elements);
  j.at("bench_shape_finite").get_to(r.bench_shape_finite);
  j.at("seed").get_to(r.seed);
  r.mode = read_enum(j, "mode", "correctness.mode", parse_launch_mode, launch_mode_name, kLaunchModes);
  r.scope = CheckScope::Full;
  if (j.contains("scope")) {
    const auto scope = j.at("scope").get<std::string>();
    if (scope != "quick" && scope != "full") {
      reject_field(j, "correctness.scope is '" + scope + "', not 'quick' or 'full'");
    }
    r.scope = scope == "quick" ? CheckScope::Quick : CheckScope::Full;
  }
  if (j.contains("twin") && !j.at("twin").is_null()) {
    j.at("twin").at("id").get_to(r.twin_id);
    r.twin_rel_error = j.at("twin").at("rel_error").get<double>();
  }
}

void to_json(json& j, const TimingResult& r) {
  j = json{{"median_ms", r.median_ms}, {"q1_ms", r.q1_ms},       {"q3_ms", r.q3_ms},
           {"min_ms", r.min_ms},       {"max_ms", r.max_ms},     {"samples_ms", r.samples_ms},
           {"tflops", r.tflops},       {"gbps", r.gbps},         {"pct_of_ceiling", r.pct_of_ceiling},
           {"ceiling", r.ceiling},     {"mode", launch_mode_name(r.mode)},  {"cold_l2", r.cold_l2},
           {"sm_mhz", r.sm_mhz},       {"event_reasons", r.event_reasons},
           {"throttled_samples", r.throttled_samples},        {"median_sm_mhz", r.median_sm_mhz},
           {"median_cycles", r.median_cycles},                {"rel_noise", r.rel_noise},
           {"stop_reason", stop_reason_name(r.stop_reason)},  {"injected_slowdown", r.injected_slowdown},
           {"injected_delay_ms", r.injected_delay_ms},
           {"run_medians_ms", r.run_medians_ms}, {"graph_batch", r.graph_batch},
           {"graph_fallback", r.graph_fallback}};
}

void from_json(const json& j, TimingResult& r) {
  j.at("median_ms").get_to(r.median_ms);
  j.at("q1_ms").get_to(r.q1_ms);
  j.at("q3_ms").get_to(r.q3_ms);
  j.at("min_ms").get_to(r.min_ms);
  j.at("max_ms").get_to(r.max_ms);
  j.at("samples_ms").get_to(r.samples_ms);
  j.at("tflops").get_to(r.tflops);
  j.at("gbps").get_to(r.gbps);
  j.at("pct_of_ceiling").get_to(r.pct_of_ceiling);
  j.at("ceiling").get_to(r.ceiling);
  r.mode = read_enum(j, "mode", "timing.mode", parse_launch_mode, launch_mode_name, kLaunchModes);
  j.at("cold_l2").get_to(r.cold_l2);
  j.at("sm_mhz").get_to(r.sm_mhz);
  j.at("event_reasons").get_to(r.event_reasons);
  j.at("throttled_samples").get_to(r.throttled_samples);
  j.at("median_sm_mhz").get_to(r.median_sm_mhz);
  j.at("median_cycles").get_to(r.median_cycles);
  j.at("rel_noise").get_to(r.rel_noise);
  r.stop_reason = read_enum(j, "stop_reason", "timing.stop_reason", parse_stop_reason, stop_reason_name, kStopReasons);
  j.at("injected_slowdown").get_to(r.injected_slowdown);
  r.injected_delay_ms = j.value("injected_delay_ms", 0.0);  // absent before the knob counted the spin's own cost
  r.run_medians_ms = j.value("run_medians_ms", std::vector<double>{});
  // Absent from results written before CUDA-graph replay existed (and from older baselines).
  r.graph_batch = j.value("graph_batch", 0);
  r.graph_fallback = j.value("graph_fallback", std::string{});
}

void to_json(json& j, const OperatorResult& r) {
  j = json{{"id", r.id},         {"family", r.family}, {"name", r.name},   {"dtype", r.dtype},
           {"shape", r.shape},   {"model", r.model},   {"impl", r.impl},   {"flops", r.flops},
           {"bytes", r.bytes},   {"image", r.image},   {"error", r.error}, {"failed", r.failed()}};
  j["fault"] = r.fault.empty() ? json(nullptr) : json(r.fault);
  if (!r.implementation.empty()) j["implementation"] = r.implementation;
  if (!r.phase_seconds.empty()) j["phase_seconds"] = r.phase_seconds;
  j["correctness"] = r.correctness ? json(*r.correctness) : json(nullptr);
  j["timing"] = r.timing ? json(*r.timing) : json(nullptr);
}

void from_json(const json& j, OperatorResult& r) {
  j.at("id").get_to(r.id);
  j.at("family").get_to(r.family);
  j.at("name").get_to(r.name);
  j.at("dtype").get_to(r.dtype);
  j.at("shape").get_to(r.shape);
  j.at("model").get_to(r.model);
  j.at("impl").get_to(r.impl);
  j.at("flops").get_to(r.flops);
  j.at("bytes").get_to(r.bytes);
  j.at("image").get_to(r.image);
  j.at("error").get_to(r.error);
  if (j.contains("fault") && !j.at("fault").is_null()) j.at("fault").get_to(r.fault);
  r.implementation = j.value("implementation", std::string());
  r.phase_seconds = j.value("phase_seconds", std::map<std::string, double>{});  // absent before it was recorded
  if (!j.at("correctness").is_null()) r.correctness = j.at("correctness").get<CorrectnessResult>();
  if (!j.at("timing").is_null()) r.timing = j.at("timing").get<TimingResult>();
}

void to_json(json& j, const Ceilings& c) {
  j = json{{"f32_tflops", c.f32_tflops}, {"tf32_tflops", c.tf32_tflops}, {"f16_tflops", c.f16_tflops},
           {"bf16_tflops", c.bf16_tflops}, {"dram_gbps", c.dram_gbps}, {"timer_floor_ms", c.timer_floor_ms}};
}

void from_json(const json& j, Ceilings& c) {
  j.at("f32_tflops").get_to(c.f32_tflops);
  j.at("tf32_tflops").get_to(c.tf32_tflops);
  j.at("f16_tflops").get_to(c.f16_tflops);
  j.at("bf16_tflops").get_to(c.bf16_tflops);
  j.at("dram_gbps").get_to(c.dram_gbps);
  c.timer_floor_ms = j.value("timer_floor_ms", 0.0);  // absent from results older than the floor
}

void to_json(json& j, const DeviceInfo& d) {
  j = json{{"index", d.index},         {"name", d.name},       {"cc", d.cc.str()},   {"sm_count", d.sm_count},
           {"memory_bytes", d.memory_bytes}, {"l2_bytes", d.l2_bytes}, {"uuid", d.uuid}};
}

void to_json(json& j, const Environment& e) {
  j = json{{"driver_cuda_version", e.driver.str()}, {"runtime_cuda_version", e.runtime.str()},
           {"device_count_error", e.device_count_error}, {"device_count_error_text", e.device_count_error_text},
           {"devices", e.devices}, {"cuda_env", e.cuda_env}};
}

void to_json(json& j, const BuildManifest& m) {
  j = json{{"arch_list", m.arch_list},
           {"arch_list_source", m.arch_list_source},
           {"arch_grammar", m.arch_grammar},
           {"sass", arch::join_names(m.sass())},
           {"ptx", arch::join_names(m.ptx())},
           {"ptx_isa", m.ptx_isa},
           {"nvcc", m.nvcc_version},
           {"cublas_headers", m.cublas_header_version},
           {"cudnn_headers", m.cudnn_header_version},
           {"git_revision", m.git_revision},
           {"build_type", m.build_type},
           {"archbench_version", m.archbench_version}};
  if (!m.kernel_arch_overrides.empty()) j["kernel_arch_overrides"] = m.kernel_arch_overrides;
}

json report_to_json(const RunReport& r) {
  json j{{"schema", "archbench.run"}, {"schema_version", kRunSchemaVersion}, {"build", r.build},
         {"environment", r.environment},
         {"selection", {{"filter", r.selection.filter}, {"dtypes", r.selection.dtypes},
                        {"selected", r.selection.selected}, {"registered", r.selection.registered}}},
         {"devices", json::array()}};
  for (const auto& d : r.devices) {
    j["devices"].push_back({{"device", d.device},
                            {"ceilings", d.ceilings ? json(*d.ceilings) : json(nullptr)},
                            {"phase_seconds", d.phase_seconds},
                            {"operators", d.operators}});
  }
  return j;
}

}  // namespace archbench

namespace archbench {

nlohmann::json report_to_gbench_json(const RunReport& r) {
  json benchmarks = json::array();
  int family = 0;
  for (const auto& d : r.devices) {
    for (const auto& o : d.operators) {
      if (!o.timing) continue;
      const std::string name = r.devices.size() > 1 ? "gpu" + std::to_string(d.device.index) + "/" + o.id : o.id;
      const auto& samples = o.timing->samples_ms;
      for (size_t k = 0; k < samples.size(); ++k) {
        benchmarks.push_back({{"name", name}, {"family_index", family}, {"per_family_instance_index", 0},
                              {"run_name", name}, {"run_type", "iteration"}, {"repetitions", samples.size()},
                              {"repetition_index", k}, {"threads", 1}, {"iterations", 1}, {"real_time", samples[k]},
                              {"cpu_time", samples[k]}, {"time_unit", "ms"}});
      }
      ++family;
    }
  }
  return json{{"context", {{"executable", "archbench"}, {"library_build_type", "release"}, {"archbench_version", r.build.archbench_version},
                           {"git_revision", r.build.git_revision}, {"arch_list", r.build.arch_list}}},
              {"benchmarks", benchmarks}};
}

}  // namespace archbench
