// The doctor's output: the environment manifest worth keeping with every
// environment (driver, runtime, toolkit, build targets, OS, compiler, loaded libraries, devices),
// the checklist as text, and both as JSON (schema "archbench.doctor", version 1).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/doctor/checklist.hpp"
#include "harness/doctor/hardware_layer.hpp"
#include "harness/doctor/runtime_layer.hpp"
#include "harness/manifest/build_manifest.hpp"

namespace archbench::doctor {

inline constexpr int kDoctorSchemaVersion = 1;

// Ordered (key, value) lines.
using EnvironmentManifest = std::vector<std::pair<std::string, std::string>>;

[[nodiscard]] EnvironmentManifest environment_manifest(const BuildManifest& build, const HardwareFacts& hw,
                                                       const RuntimeFacts& rt);

[[nodiscard]] std::string format_environment_manifest(const EnvironmentManifest& m);
// Layer by layer: "  FAIL  device-count  <summary>" then cause, fix, root causes (ids of
// docs/reference/field-causes.md) and evidence.
[[nodiscard]] std::string format_checklist(const Checklist& c);
// "summary: 2 FAIL, 1 WARN, 14 PASS, 3 SKIP -> <meaning> (exit 3)"
[[nodiscard]] std::string format_summary(const Checklist& c, int exit_code, std::string_view meaning);

[[nodiscard]] nlohmann::json finding_to_json(const Finding& f);
// The whole report; the CLI adds "workload" (the operator results of each pass).
[[nodiscard]] nlohmann::json doctor_to_json(const EnvironmentManifest& m, const Checklist& c, int exit_code,
                                            std::string_view meaning);

}  // namespace archbench::doctor
