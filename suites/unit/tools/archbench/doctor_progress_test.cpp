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
#include "suites/unit/tools/archbench/progress_fixtures.hpp"
#include "suites/unit/tools/archbench/stand_in_worker.hpp"

namespace archbench::cli {
namespace {

// A stand-in worker that reports every operator it is given as ok_result.
class DoctorProgress : public testing::Test {
 protected:
  StandInWorker worker_{"doctor-progress", ok_result("__ID__"), R"sh(#!/bin/bash
dir="$(dirname "$0")"; ids="$3.ids"; out="$(python3 "$dir/request.py" "$3" "$ids")"
while read -r id; do
  echo "{\"type\":\"start\",\"id\":\"$id\"}" >> "$out"
  sed "s|__ID__|$id|" "$dir/result.json" >> "$out"
done < "$ids"
)sh"};
};

// The lines a pass named `name` writes for `ops`, through the stand-in worker.
std::string progress_of(const std::string& worker, const std::string& name,
                        const std::vector<const Operator*>& ops, doctor::PassResults& pass) {
  std::FILE* f = std::tmpfile();
  {
    RunProgress progress(f, RunProgress::Style::Lines, false);
    pass = run_doctor_pass({name, 0, ops, 1, {}, 0, name != "check", worker}, progress);
  }
  return read_and_close(f);
}

TEST_F(DoctorProgress, EveryOperatorOfAPassIsALine) {
  const auto ops = registry().select("matmul/gemm_simt/*", {});
  ASSERT_GE(ops.size(), 2u);
  for (const std::string name : {"check", "no-jit", "forced-jit"}) {
    doctor::PassResults pass;
    const std::string out = progress_of(worker_.executable(), name, ops, pass);
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
