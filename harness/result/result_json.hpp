// JSON form of the result model (schema "archbench.run", version 1), used for --json output
// and between the run's parent and its worker processes.
#pragma once

#include <nlohmann/json.hpp>

#include "harness/result/result.hpp"

namespace archbench {

inline constexpr int kRunSchemaVersion = 1;

void to_json(nlohmann::json& j, const ImageResult& r);
void from_json(const nlohmann::json& j, ImageResult& r);
void to_json(nlohmann::json& j, const CorrectnessResult& r);
void from_json(const nlohmann::json& j, CorrectnessResult& r);
void to_json(nlohmann::json& j, const TimingResult& r);
void from_json(const nlohmann::json& j, TimingResult& r);
void to_json(nlohmann::json& j, const OperatorResult& r);
void from_json(const nlohmann::json& j, OperatorResult& r);
void to_json(nlohmann::json& j, const Ceilings& c);
void from_json(const nlohmann::json& j, Ceilings& c);
void to_json(nlohmann::json& j, const PathCandidate& c);
void from_json(const nlohmann::json& j, PathCandidate& c);
void to_json(nlohmann::json& j, const PathChoice& c);
void from_json(const nlohmann::json& j, PathChoice& c);
void to_json(nlohmann::json& j, const DeviceInfo& d);
void from_json(const nlohmann::json& j, DeviceInfo& d);
void to_json(nlohmann::json& j, const Environment& e);
void from_json(const nlohmann::json& j, Environment& e);
void to_json(nlohmann::json& j, const BuildManifest& m);
void from_json(const nlohmann::json& j, BuildManifest& m);

[[nodiscard]] nlohmann::json report_to_json(const RunReport& r);

// The timings in Google Benchmark's JSON format (each sample one repetition, in ms), so its
// tools/compare.py can compare two archbench runs. Device index is part of the name when a run
// measured several devices.
[[nodiscard]] nlohmann::json report_to_gbench_json(const RunReport& r);

}  // namespace archbench
