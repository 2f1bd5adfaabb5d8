// The doctor's framework check (harness/doctor/framework_check) on probe answers: every op right is
// a PASS, an op without an image a FAIL that names it, a CPU-only torch a WARN, no torch a SKIP.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/doctor/framework_check.hpp"
#include "suites/unit/harness/doctor/checklist_queries.hpp"

namespace archbench::doctor {
namespace {

FrameworkCheckInput input(const nlohmann::json& answer) {
  FrameworkCheckInput in;
  in.python = "/venv/bin/python3";
  in.answer = framework::parse_probe_answer(answer);
  for (const auto& op : in.answer.ops) in.verdicts.push_back(framework::judge_op(op));
  return in;
}

nlohmann::json answer(const char* status, nlohmann::json default_variant) {
  return {{"schema", "archbench.framework.probe"}, {"status", status}, {"reason", "why"},
          {"framework", {{"version", "2.11.0+cu130"}, {"cuda", "13.0"}}},
          {"ops", {{{"id", "framework/silu/f16/B2_C320_H64_W64"}, {"op", "silu"}, {"dtype", "f16"},
                    {"variants", {default_variant}}}}}};
}

TEST(DoctorFramework, RightOpsPassAnOpWithoutAnImageFailsNamingIt) {
  const nlohmann::json ran = {{"backend", "default"}, {"status", "ran"}, {"rel_error", 2e-4},
                              {"kernels", {{{"name", "at::native::vectorized_elementwise_kernel"}, {"us", 7.0}}}}};
  Checklist c = checked(check_framework, input(answer("ok", ran)));
  const Finding* f = only(c, "framework");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->outcome, Outcome::Pass);
  EXPECT_NE(f->summary.find("torch 2.11.0+cu130"), std::string::npos) << f->summary;

  const nlohmann::json missing = {{"backend", "default"}, {"status", "failed"}, {"image", "missing"},
                                  {"reason", "CUDA error: no kernel image is available for execution on the device"}};
  c = checked(check_framework, input(answer("ok", missing)));
  f = only(c, "framework");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->outcome, Outcome::Fail);
  ASSERT_EQ(f->details.size(), 1u);
  EXPECT_NE(f->details[0].find("framework/silu/f16/B2_C320_H64_W64 image-missing"), std::string::npos) << f->details[0];
}

TEST(DoctorFramework, ACpuOnlyTorchWarnsNoTorchOrNoAnswerSkips) {
  auto status_only = [](const char* status) {
    return nlohmann::json{{"schema", "archbench.framework.probe"}, {"status", status}, {"reason", "the reason"}};
  };
  const Finding* f = nullptr;
  Checklist c = checked(check_framework, input(status_only("torch-without-cuda")));
  ASSERT_NE(f = only(c, "framework"), nullptr);
  EXPECT_EQ(f->outcome, Outcome::Warn);
  c = checked(check_framework, input(status_only("no-gpu")));
  ASSERT_NE(f = only(c, "framework"), nullptr);
  EXPECT_EQ(f->outcome, Outcome::Fail);
  c = checked(check_framework, input(status_only("no-torch")));
  ASSERT_NE(f = only(c, "framework"), nullptr);
  EXPECT_EQ(f->outcome, Outcome::Skip);
  FrameworkCheckInput none;
  none.python = "python3";
  none.not_run = "cannot run python3";
  c = checked(check_framework, none);
  ASSERT_NE(f = only(c, "framework"), nullptr);
  EXPECT_EQ(f->outcome, Outcome::Skip);
  EXPECT_NE(f->summary.find("cannot run python3"), std::string::npos);
}

}  // namespace
}  // namespace archbench::doctor
