#include "harness/result/result_json.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "harness/result/json_enum.hpp"
#include "harness/result/json_fields.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench {

using nlohmann::json;

namespace {

// The fields a type writes and reads back under the same key, one list per type (json_fields.hpp),
// with `r` const when writing. Fields with a default for older files, enums and nested objects are
// handled beside the lists.
template <typename R, typename Field>
void image_fields(R& r, Field&& field) {
  field("label", r.label);
  field("cause", r.cause);
  field("fix", r.fix);
  field("agrees", r.agrees);
  field("disagreement", r.disagreement);
}

template <typename R, typename Field>
void correctness_fields(R& r, Field&& field) {
  field("passed", r.passed);
  field("check_shape", r.check_shape);
  field("rel_error", r.rel_error);
  field("max_abs_error", r.max_abs_error);
  field("tolerance", r.tolerance);
  field("non_finite", r.non_finite);
  field("elements", r.elements);
  field("bench_shape_finite", r.bench_shape_finite);
  field("seed", r.seed);
}

template <typename R, typename Field>
void timing_fields(R& r, Field&& field) {
  field("median_ms", r.median_ms);
  field("q1_ms", r.q1_ms);
  field("q3_ms", r.q3_ms);
  field("min_ms", r.min_ms);
  field("max_ms", r.max_ms);
  field("samples_ms", r.samples_ms);
  field("tflops", r.tflops);
  field("gbps", r.gbps);
  field("pct_of_ceiling", r.pct_of_ceiling);
  field("ceiling", r.ceiling);
  field("cold_l2", r.cold_l2);
  field("sm_mhz", r.sm_mhz);
  field("event_reasons", r.event_reasons);
  field("throttled_samples", r.throttled_samples);
  field("median_sm_mhz", r.median_sm_mhz);
  field("median_cycles", r.median_cycles);
  field("rel_noise", r.rel_noise);
  field("injected_slowdown", r.injected_slowdown);
}

template <typename R, typename Field>
void operator_fields(R& r, Field&& field) {
  field("id", r.id);
  field("family", r.family);
  field("name", r.name);
  field("shape", r.shape);
  field("model", r.model);
  field("flops", r.flops);
  field("bytes", r.bytes);
  field("image", r.image);
  field("error", r.error);
}

template <typename R, typename Field>
void path_candidate_fields(R& c, Field&& field) {
  field("id", c.id);
  field("name", c.name);
  field("label", c.label);
  field("usable", c.usable);
}

template <typename R, typename Field>
void path_choice_fields(R& c, Field&& field) {
  field("family", c.family);
  field("shape", c.shape);
  field("own", c.own);
}

template <typename R, typename Field>
void ceiling_fields(R& c, Field&& field) {
  field("f32_tflops", c.f32_tflops);
  field("tf32_tflops", c.tf32_tflops);
  field("f16_tflops", c.f16_tflops);
  field("bf16_tflops", c.bf16_tflops);
  field("dram_gbps", c.dram_gbps);
}

}  // namespace

void to_json(json& j, const ImageResult& r) {
  j = json{{"status", outcome_name(r.status)}, {"note", r.note}, {"kernels", json::array()}};
  image_fields(r, field_writer(j));
  for (const auto& k : r.kernels) {
    j["kernels"].push_back({{"name", k.name}, {"label", k.label}, {"runtime_error", k.runtime_error},
                            {"binary_version", k.binary_version}, {"ptx_version", k.ptx_version}});
  }
}

void from_json(const json& j, ImageResult& r) {
  r.status = read_enum(j, "status", "image.status", kImageOutcomes, kImageOutcomeAliases);
  image_fields(r, field_reader(j));
  r.note = j.value("note", "");
  for (const auto& k : j.at("kernels")) {
    r.kernels.push_back({k.at("name"), k.at("label"), k.at("runtime_error"), k.at("binary_version"), k.at("ptx_version")});
  }
}

void to_json(json& j, const CorrectnessResult& r) {
  j = json{{"mode", launch_mode_name(r.mode)}};
  correctness_fields(r, field_writer(j));
  j["twin"] = r.twin_rel_error ? json{{"id", r.twin_id}, {"rel_error", *r.twin_rel_error}} : json(nullptr);
  // Written only for a quick check, so files from full runs stay as they were.
  if (r.scope == CheckScope::Quick) j["scope"] = check_scope_name(r.scope);
}

void from_json(const json& j, CorrectnessResult& r) {
  correctness_fields(r, field_reader(j));
  r.mode = read_enum(j, "mode", "correctness.mode", kLaunchModes);
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
  j = json{{"mode", launch_mode_name(r.mode)},
           {"stop_reason", stop_reason_name(r.stop_reason)},
           {"injected_delay_ms", r.injected_delay_ms},
           {"run_medians_ms", r.run_medians_ms},
           {"graph_batch", r.graph_batch},
           {"graph_fallback", r.graph_fallback}};
  // Only when it happened: a run recorded before the timer held the stream reads back as written.
  if (!r.hold_fallback.empty()) j["hold_fallback"] = r.hold_fallback;
  if (r.settle_ms > 0) j["settle_ms"] = r.settle_ms;  // the wait out of the power cap, when there was one
  if (r.settle_capped) j["settle_capped"] = true;
  timing_fields(r, field_writer(j));
}

void from_json(const json& j, TimingResult& r) {
  timing_fields(r, field_reader(j));
  r.mode = read_enum(j, "mode", "timing.mode", kLaunchModes);
  r.stop_reason = read_enum(j, "stop_reason", "timing.stop_reason", kStopReasons);
  r.injected_delay_ms = j.value("injected_delay_ms", 0.0);  // absent before the knob counted the spin's own cost
  r.run_medians_ms = j.value("run_medians_ms", std::vector<double>{});
  // Absent from results written before CUDA-graph replay existed (and from older baselines).
  r.graph_batch = j.value("graph_batch", 0);
  r.graph_fallback = j.value("graph_fallback", std::string{});
  r.hold_fallback = j.value("hold_fallback", std::string{});  // absent before the timer held the stream
  r.settle_ms = j.value("settle_ms", 0.0);  // absent before the timer waited out the power cap
  r.settle_capped = j.value("settle_capped", false);
}

namespace {

// "phase_seconds": {"check": s, "time": s}, keyed by the phase's name.
json phase_seconds_json(const std::map<Phase, double>& seconds) {
  json j = json::object();
  for (const auto& [phase, s] : seconds) j[std::string(phase_name(phase))] = s;
  return j;
}

std::map<Phase, double> read_phase_seconds(const json& j) {
  std::map<Phase, double> seconds;
  if (!j.contains("phase_seconds")) return seconds;  // absent before it was recorded
  for (const auto& [name, s] : j.at("phase_seconds").items()) {
    const auto phase = parse_name(kPhases, name);
    if (!phase) reject_field(j, "phase_seconds has the phase '" + name + "', not 'check' or 'time'");
    seconds[*phase] = s.get<double>();
  }
  return seconds;
}

}  // namespace

void to_json(json& j, const OperatorResult& r) {
  j = json{{"failed", r.failed()}, {"dtype", dtype_name(r.dtype)}, {"impl", impl_name(r.impl)}};
  operator_fields(r, field_writer(j));
  j["fault"] = r.fault == WorkerFault::None ? json(nullptr) : json(worker_fault_name(r.fault));
  if (!r.implementation.empty()) j["implementation"] = r.implementation;
  if (!r.phase_seconds.empty()) j["phase_seconds"] = phase_seconds_json(r.phase_seconds);
  j["correctness"] = r.correctness ? json(*r.correctness) : json(nullptr);
  j["timing"] = r.timing ? json(*r.timing) : json(nullptr);
}

void from_json(const json& j, OperatorResult& r) {
  operator_fields(r, field_reader(j));
  r.dtype = read_enum(j, "dtype", "dtype", kDTypes);
  r.impl = read_enum(j, "impl", "impl", kImpls);
  if (j.contains("fault") && !j.at("fault").is_null()) {
    r.fault = read_enum(j, "fault", "fault", kWorkerFaults);
  }
  r.implementation = j.value("implementation", std::string());
  r.phase_seconds = read_phase_seconds(j);
  if (!j.at("correctness").is_null()) r.correctness = j.at("correctness").get<CorrectnessResult>();
  if (!j.at("timing").is_null()) r.timing = j.at("timing").get<TimingResult>();
}

void to_json(json& j, const Ceilings& c) {
  j = json{{"timer_floor_ms", c.timer_floor_ms}};
  ceiling_fields(c, field_writer(j));
  if (c.e4m3_tflops > 0) j["e4m3_tflops"] = c.e4m3_tflops;  // only where measured (FP8 devices)
}

void from_json(const json& j, Ceilings& c) {
  ceiling_fields(c, field_reader(j));
  c.timer_floor_ms = j.value("timer_floor_ms", 0.0);  // absent from results older than the floor
  c.e4m3_tflops = j.value("e4m3_tflops", 0.0);        // absent before FP8, and on devices without it
}

void to_json(json& j, const PathCandidate& c) {
  j = json{{"verdict", c.verdict.name()},
           {"image", outcome_name(c.verdict.image)},
           {"time_ratio", c.time_ratio ? json(*c.time_ratio) : json(nullptr)}};
  path_candidate_fields(c, field_writer(j));
}

void from_json(const json& j, PathCandidate& c) {
  path_candidate_fields(c, field_reader(j));
  const auto image = read_enum(j, "image", "paths.image", kImageOutcomes, kImageOutcomeAliases);
  const auto name = j.at("verdict").get<std::string>();
  const auto verdict = parse_operator_verdict(name, image);
  if (!verdict) reject_field(j, "paths.verdict is '" + name + "', neither the image verdict nor error, wrong or absent");
  c.verdict = *verdict;
  if (!j.at("time_ratio").is_null()) c.time_ratio = j.at("time_ratio").get<double>();
}

void to_json(json& j, const PathChoice& c) {
  const PathCandidate* chosen = c.chosen_path();
  j = json{{"chosen", chosen ? json(chosen->name) : json(nullptr)}, {"twin", c.twin ? json(*c.twin) : json(nullptr)},
           {"dtype", dtype_name(c.dtype)}};
  path_choice_fields(c, field_writer(j));
}

void from_json(const json& j, PathChoice& c) {
  path_choice_fields(c, field_reader(j));
  c.dtype = read_enum(j, "dtype", "paths.dtype", kDTypes);
  if (!j.at("twin").is_null()) c.twin = j.at("twin").get<PathCandidate>();
  if (j.at("chosen").is_null()) return;
  const auto name = j.at("chosen").get<std::string>();
  const auto it = std::ranges::find(c.own, name, &PathCandidate::name);
  if (it == c.own.end()) reject_field(j, "paths.chosen is '" + name + "', not one of its own paths");
  c.chosen = static_cast<size_t>(it - c.own.begin());
}

void to_json(json& j, const DeviceInfo& d) {
  j = json{{"index", d.index},         {"name", d.name},       {"cc", d.cc.str()},   {"sm_count", d.sm_count},
           {"memory_bytes", d.memory_bytes}, {"l2_bytes", d.l2_bytes}, {"uuid", d.uuid}};
}

void to_json(json& j, const Environment& e) {
  j = json{{"driver_cuda_version", e.driver.str()}, {"runtime_cuda_version", e.runtime.str()},
           {"device_count_error", e.device_count_error}, {"device_count_error_text", e.device_count_error_text},
           {"devices", e.devices}, {"cuda_env", e.cuda_env}, {"host", e.host}, {"started_at", e.started_at}};
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

namespace {

// "9.0" -> {9, 0}; "" or anything else -> {0, 0} (a file without the field).
arch::ComputeCapability cc_of(const std::string& text) {
  const auto dot = text.find('.');
  if (dot == std::string::npos) return {0, 0};
  try {
    return {std::stoi(text.substr(0, dot)), std::stoi(text.substr(dot + 1))};
  } catch (const std::exception&) {
    return {0, 0};
  }
}

// "13.0" -> 13000; "unknown" (no driver) or a missing field -> 0, as CudaVersion::str writes them.
arch::CudaVersion cuda_version_of(const std::string& text) {
  const arch::ComputeCapability v = cc_of(text);
  return v.major == 0 && v.minor == 0 ? arch::CudaVersion{0} : arch::CudaVersion::from(v.major, v.minor);
}

// "sm_75 sm_80" -> its targets; a name this archbench cannot read is rejected.
void add_targets(const json& j, const char* key, std::vector<arch::CodeTarget>& out) {
  std::string names = j.value(key, std::string());
  size_t start = 0;
  while (start < names.size()) {
    size_t end = names.find(' ', start);
    if (end == std::string::npos) end = names.size();
    if (end > start) {
      const auto t = arch::parse_target_name(std::string_view(names).substr(start, end - start));
      if (!t) reject_field(j, std::string("build.") + key + " names '" + names.substr(start, end - start) + "'");
      out.push_back(*t);
    }
    start = end + 1;
  }
}

}  // namespace

// Readers of the manifest types. Every field defaults when a file lacks it (fields were added over
// time, and a hand-made results file may hold an empty environment); a field of the wrong type is
// rejected, as everywhere.
void from_json(const json& j, DeviceInfo& d) {
  d.index = j.value("index", 0);
  d.name = j.value("name", std::string());
  d.cc = cc_of(j.value("cc", std::string()));
  d.sm_count = j.value("sm_count", 0);
  d.memory_bytes = j.value("memory_bytes", size_t{0});
  d.l2_bytes = j.value("l2_bytes", 0);
  d.uuid = j.value("uuid", std::string());
}

void from_json(const json& j, Environment& e) {
  e.driver = cuda_version_of(j.value("driver_cuda_version", std::string()));
  e.runtime = cuda_version_of(j.value("runtime_cuda_version", std::string()));
  e.device_count_error = j.value("device_count_error", 0);
  e.device_count_error_text = j.value("device_count_error_text", std::string());
  e.devices = j.value("devices", std::vector<DeviceInfo>{});
  e.cuda_env = j.value("cuda_env", std::map<std::string, std::string>{});
  e.host = j.value("host", std::string());
  e.started_at = j.value("started_at", std::string());
}

void from_json(const json& j, BuildManifest& m) {
  m.arch_list = j.value("arch_list", std::string());
  m.arch_list_source = j.value("arch_list_source", std::string());
  m.arch_grammar = j.value("arch_grammar", std::string());
  m.targets.clear();
  add_targets(j, "sass", m.targets);
  add_targets(j, "ptx", m.targets);
  m.ptx_isa = j.value("ptx_isa", std::string());
  m.nvcc_version = j.value("nvcc", std::string());
  m.cublas_header_version = j.value("cublas_headers", std::string());
  m.cudnn_header_version = j.value("cudnn_headers", std::string());
  m.git_revision = j.value("git_revision", std::string());
  m.build_type = j.value("build_type", std::string());
  m.archbench_version = j.value("archbench_version", std::string());
  m.kernel_arch_overrides = j.value("kernel_arch_overrides", std::string());
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
                            {"phase_seconds", phase_seconds_json(d.phase_seconds)},
                            {"operators", d.operators},
                            {"paths", d.paths}});
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
