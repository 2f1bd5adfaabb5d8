// Synthetic results for the baseline / compare tests: a timing of normally distributed samples
// (0.5% spread, as the H200's stopping rule leaves a run's median), a correct operator around it,
// and an H200's device results holding them.
#pragma once

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "harness/baseline/baseline_file.hpp"
#include "harness/result/result_json.hpp"
#include "harness/result/result.hpp"
#include "harness/run/timer.hpp"

namespace archbench::testing_support {

inline TimingResult synthetic_timing(double center_ms, unsigned seed, LaunchMode mode = LaunchMode::Async, int batch = 0,
                                     int samples = 40) {
  TimingResult t;
  std::mt19937 rng(seed);
  std::normal_distribution<double> d(center_ms, center_ms * 0.005);
  for (int i = 0; i < samples; ++i) t.samples_ms.push_back(d(rng));
  summarize(t);
  t.mode = mode;
  t.graph_batch = batch;
  return t;
}

inline OperatorResult synthetic_operator(const std::string& id, const TimingResult& t,
                                         const std::string& family = "elementwise") {
  OperatorResult r;
  r.id = id;
  r.family = family;
  r.image.status = ImageOutcome::Sass;
  r.image.label = "sass sm_90";
  CorrectnessResult c;
  c.passed = true;
  c.bench_shape_finite = true;
  r.correctness = c;
  r.timing = t;
  return r;
}

inline DeviceResults synthetic_h200(std::vector<OperatorResult> ops) {
  DeviceResults d;
  d.device = nlohmann::json{{"name", "NVIDIA H200"}, {"cc", "9.0"}, {"memory_bytes", size_t{150110011392}}, {"uuid", "GPU-1"}}
                 .get<DeviceInfo>();
  d.key = device_key("NVIDIA H200", "9.0", 150110011392);
  d.build = nlohmann::json{{"arch_list", "9.0"}, {"sass", "sm_90"}, {"ptx", ""}, {"nvcc", "13.0"}}.get<BuildManifest>();
  d.operators = std::move(ops);
  return d;
}

}  // namespace archbench::testing_support
