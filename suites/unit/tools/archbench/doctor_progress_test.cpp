// The doctor's workload passes report per-operator progress on stderr as `archbench run` does (the
// blocking pass took 75 s of silence on the H200): a stand-in worker speaking the worker's line
// protocol reports the operators, and the pass's progress lines name each with its verdict.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/ops/registry.hpp"
#include "harness/result/result_json.hpp"
#include "tools/archbench/doctor_pass.hpp"
#include "tools/archbench/progress.hpp"

namespace archbench::cli {
namespace {

class DoctorProgress : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("archbench-doctor-progress-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    OperatorResult r;
    r.id = "__ID__";
    r.image.status = ImageVerdict::Sass;
    r.image.label = "sass sm_90";
    CorrectnessResult c;
    c.passed = c.bench_shape_finite = true;
    c.rel_error = 3.2e-7;
    r.correctness = c;
    std::ofstream(dir_ / "result.json") << nlohmann::json{{"type", "operator"}, {"result", r}}.dump() << "\n";
    // argv: worker --phase P --device D --ids FILE --out FILE --seed S ...
    std::ofstream(dir_ / "fake_worker") << R"sh(#!/bin/bash
ids="$7"; out="$9"; dir="$(dirname "$0")"
while read -r id; do
  echo "{\"type\":\"start\",\"id\":\"$id\"}" >> "$out"
  sed "s|__ID__|$id|" "$dir/result.json" >> "$out"
done < "$ids"
)sh";
    chmod((dir_ / "fake_worker").c_str(), 0755);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

// The lines a pass named `name` writes for `ops`, through the stand-in worker.
std::string progress_of(const std::filesystem::path& worker, const std::string& name,
                        const std::vector<const Operator*>& ops, doctor::PassResults& pass) {
  std::FILE* f = std::tmpfile();
  {
    RunProgress progress(f, RunProgress::Style::Lines, false);
    pass = run_doctor_pass({name, 0, ops, 1, {}, 0, name != "check", worker.string()}, progress);
  }
  std::rewind(f);
  std::string out;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) out += static_cast<char>(c);
  std::fclose(f);
  return out;
}

TEST_F(DoctorProgress, EveryOperatorOfAPassIsALine) {
  const auto ops = registry().select("matmul/gemm_simt/*", {});
  ASSERT_GE(ops.size(), 2u);
  for (const std::string name : {"check", "no-jit", "forced-jit"}) {
    doctor::PassResults pass;
    const std::string out = progress_of(dir_ / "fake_worker", name, ops, pass);
    ASSERT_EQ(pass.results.size(), ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
      const std::string line = "[gpu0 " + name + " " + std::to_string(i + 1) + "/" + std::to_string(ops.size()) +
                               "] " + ops[i]->id() + " sass sm_90, ok 3.2e-07\n";
      EXPECT_NE(out.find(line), std::string::npos) << line << "in\n" << out;
      EXPECT_EQ(pass.results[i].id, ops[i]->id());
    }
  }
}

}  // namespace
}  // namespace archbench::cli
