// The doctor's workload layer on plain operator results: failures grouped by cause, the per-dtype
// gap and its temporary workaround, wrong results, the forced-JIT and no-JIT passes and the JIT
// cost (no GPU needed); and the checklist's text and JSON forms.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/doctor/report.hpp"
#include "harness/doctor/workload_layer.hpp"
#include "suites/unit/result_rows.hpp"

namespace archbench::doctor {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

using enum ImageOutcome;

OperatorResult op(const std::string& family, const std::string& name, const std::string& dtype, const std::string& impl,
                  ImageOutcome status) {
  OperatorResult r = testing_support::named_result(family + "/" + name + "/" + dtype + "/S", *parse_name(kImpls, impl));
  r.image.status = status;
  r.image.label = status == Sass     ? "sass sm_90"
                  : status == PtxJit ? "ptx-jit from compute_80"
                                     : std::string(outcome_name(status));
  if (status == Missing) {
    r.image.cause = "built for SASS sm_80 and PTX none; a 9.0 device needs SASS 9.x";
    r.image.fix = "add 9.0 to ARCHBENCH_ARCH_LIST (TORCH_CUDA_ARCH_LIST) for SASS on this device";
  }
  if (status == PtxJit) {
    r.image.cause = "no SASS fits; the driver JIT-compiles compute_80 at first use";
    r.image.fix = "add 9.0 to ARCHBENCH_ARCH_LIST for SASS";
  }
  if (status == JitDisabled) {
    r.image.cause = "only PTX compute_80 fits and CUDA_DISABLE_PTX_JIT is set";
    r.image.fix = "unset CUDA_DISABLE_PTX_JIT, or add 9.0";
  }
  if (status == Sass || status == PtxJit || status == Library) {
    r.correctness = testing_support::passed_check(1e-4);
  }
  return r;
}

WorkloadInputs h200(std::vector<OperatorResult> results) {
  WorkloadInputs in;
  in.device.index = 0;
  in.device.name = "NVIDIA H200";
  in.device.cc = {9, 0};
  in.blocking.results = std::move(results);
  return in;
}

TEST(DoctorWorkload, AllGoodIsOnePass) {
  Checklist c;
  check_workload(
      h200({op("matmul", "gemm_tc", "f16", "own", Sass), op("matmul", "gemm_cublas", "f16", "cublas", Library),
            op("matmul", "gemm_tc", "f32", "own", Unsupported)}),
      c);
  ASSERT_EQ(c.findings().size(), 1u);
  const Finding& f = c.findings()[0];
  EXPECT_EQ(f.outcome, Outcome::Pass);
  EXPECT_TRUE(contains(f.summary, "2 of 2 operator runs")) << f.summary;
  EXPECT_TRUE(contains(f.details.at(0), "unsupported")) << f.details.at(0);
  EXPECT_EQ(diagnose(c), Diagnosis::Healthy);
}

TEST(DoctorWorkload, PerDtypeGapGroupedWithTheWorkaround) {
  // SiLU built with sm_90 for f32 only: f16 and bf16 have no image (xformers #1251's pattern).
  Checklist c;
  check_workload(
      h200({op("elementwise", "silu", "f32", "own", Sass), op("elementwise", "silu", "f16", "own", Missing),
            op("elementwise", "silu", "bf16", "own", Missing), op("matmul", "gemm_tc", "f16", "own", Missing),
            op("matmul", "gemm_cublas", "f16", "cublas", Library)}),
      c);
  EXPECT_EQ(c.find("operators")->outcome, Outcome::Fail);
  const auto groups = c.all_of("operators-failed");
  ASSERT_EQ(groups.size(), 1u) << "one cause, one finding";
  const Finding& g = *groups[0];
  EXPECT_EQ(g.outcome, Outcome::Fail);
  EXPECT_TRUE(contains(g.summary, "3 operator(s) fail")) << g.summary;
  EXPECT_TRUE(contains(g.fix, "add 9.0 to ARCHBENCH_ARCH_LIST")) << g.fix;
  EXPECT_TRUE(contains(g.fix, "run elementwise/silu in f32 instead of bf16, f16")) << g.fix;
  EXPECT_TRUE(contains(g.fix, "use gemm_cublas instead of gemm_tc for f16")) << g.fix;
  bool gap = false;
  for (const auto& d : g.details) gap |= contains(d, "elementwise/silu works in f32 but not in bf16, f16");
  EXPECT_TRUE(gap);
  EXPECT_EQ(g.field_causes, (FieldCauses{FieldCause::NoSassForMajor, FieldCause::ArchOnlyOnSomePaths}));
  EXPECT_EQ(diagnose(c), Diagnosis::Failed);
}

TEST(DoctorWorkload, GapAcrossImplementationsSuggestsThePrecisionFallback) {
  // The f32 path is its own kernel (flash_simt), f16/bf16 another (flash_tc); only the f32 file
  // was built without the device's arch (ARCHBENCH_KERNEL_ARCH_OVERRIDES on the H200).
  Checklist c;
  check_workload(h200({op("attention", "flash_simt", "f32", "own", Missing),
                       op("attention", "flash_tc", "f16", "own", Sass), op("attention", "flash_tc", "bf16", "own", Sass)}),
                 c);
  const auto groups = c.all_of("operators-failed");
  ASSERT_EQ(groups.size(), 1u);
  const Finding& g = *groups[0];
  EXPECT_TRUE(contains(g.fix, "run attention in bf16 or f16 instead of f32")) << g.fix;
  bool gap = false;
  for (const auto& d : g.details) gap |= contains(d, "attention's own kernels work in bf16, f16 but not in f32 (at 1 shape(s))");
  EXPECT_TRUE(gap);
  EXPECT_EQ(g.field_causes, (FieldCauses{FieldCause::NoSassForMajor, FieldCause::ArchOnlyOnSomePaths}));
}

TEST(DoctorWorkload, AMissingLibraryTwinIsPreferredToThePrecisionFallback) {
  Checklist c;
  check_workload(h200({op("attention", "flash_simt", "f32", "own", Missing),
                       op("attention", "attention_math", "f32", "cublas", Library),
                       op("attention", "flash_tc", "f16", "own", Sass)}),
                 c);
  const auto groups = c.all_of("operators-failed");
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_TRUE(contains(groups[0]->fix, "use attention_math instead of flash_simt for f32")) << groups[0]->fix;
}

TEST(DoctorWorkload, WrongResultsFaultsAndJitReliance) {
  OperatorResult wrong = op("norm", "layernorm", "bf16", "own", Sass);
  wrong.correctness->passed = false;
  wrong.correctness->rel_error = 0.5;
  OperatorResult too_far = op("matmul", "gemm_tc", "f16", "own", Sass);  // within tolerance, but 10x its twin
  too_far.correctness->passed = false;
  too_far.correctness->twin_id = "matmul/gemm_cublas/f16/S";
  too_far.correctness->twin_rel_error = 1e-5;
  OperatorResult crashed = op("norm", "groupnorm", "f32", "own", Sass);
  crashed.correctness.reset();
  crashed.fault = WorkerFault::Crashed;
  crashed.error = "crashed: the check worker was killed by signal 11 (Segmentation fault) while running it";
  OperatorResult lonely = op("attention", "sdpa", "f16", "own", Missing);
  Checklist c;
  check_workload(h200({wrong, too_far, crashed, lonely, op("matmul", "gemm_simt", "f32", "own", PtxJit)}), c);
  const auto groups = c.all_of("operators-failed");
  ASSERT_EQ(groups.size(), 3u);
  const Finding* w = nullptr;
  for (const auto* g : groups)
    if (contains(g->summary, "wrong result")) w = g;
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->field_causes, (FieldCauses{FieldCause::SilentWrongResults}));
  EXPECT_TRUE(contains(w->details.at(0), "rel. error 5.00e-01")) << w->details.at(0);
  EXPECT_TRUE(
      contains(w->details.at(1), "its library twin matmul/gemm_cublas/f16/S has 1.00e-05, the limit is 3x that"))
      << w->details.at(1);
  EXPECT_TRUE(contains(w->fix, "on the CPU")) << w->fix;
  const Finding* f = nullptr;
  for (const auto* g : groups)
    if (contains(g->cause, "fault (crashed)")) f = g;
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->fix, "--filter 'norm/groupnorm/f32/S'")) << f->fix;
  const Finding* jit = c.find("operators-jit");
  ASSERT_NE(jit, nullptr);
  EXPECT_EQ(jit->outcome, Outcome::Warn);
  EXPECT_EQ(jit->field_causes, (FieldCauses{FieldCause::PtxJitReliance}));
}

TEST(DoctorWorkload, JitPasses) {
  BuildManifest m;
  m.targets = {{arch::ImageKind::Sass, 80, arch::Suffix::None, 80, {}},
               {arch::ImageKind::Sass, 90, arch::Suffix::None, 90, {}}};
  WorkloadInputs in =
      h200({op("matmul", "gemm_tc", "f16", "own", Sass), op("norm", "rmsnorm", "f16", "own", PtxJit),
            op("matmul", "gemm_cublas", "f16", "cublas", Library), op("norm", "layernorm", "f32", "own", Sass)});
  in.build = &m;
  in.blocking.load_ms = {{"matmul/gemm_tc/f16/S", 2.0}, {"norm/rmsnorm/f16/S", 900.0}, {"norm/layernorm/f32/S", 3.0}};
  // No-JIT: rmsnorm has no SASS (223); the others pass.
  PassResults nojit;
  nojit.results = {op("matmul", "gemm_tc", "f16", "own", Sass), op("norm", "rmsnorm", "f16", "own", JitDisabled),
                   op("matmul", "gemm_cublas", "f16", "cublas", Library),
                   op("norm", "layernorm", "f32", "own", Sass)};
  nojit.load_ms = {{"matmul/gemm_tc/f16/S", 2.0}, {"norm/layernorm/f32/S", 5.0}};
  // Forced JIT: gemm_tc has no PTX (209), cuBLAS cannot start, rmsnorm JITs.
  PassResults forced;
  OperatorResult lib = op("matmul", "gemm_cublas", "f16", "cublas", LibraryError);
  lib.image.label = "cuBLAS CUBLAS_STATUS_INTERNAL_ERROR";
  lib.image.cause = "cublasCreate(&raw) failed";
  forced.results = {op("matmul", "gemm_tc", "f16", "own", Missing), op("norm", "rmsnorm", "f16", "own", PtxJit),
                    lib, op("norm", "layernorm", "f32", "own", PtxJit)};
  forced.load_ms = {{"norm/rmsnorm/f16/S", 1200.0}, {"norm/layernorm/f32/S", 405.0}};
  // The JIT passes are image probes: no correctness run.
  for (auto* pass : {&nojit, &forced}) {
    for (auto& r : pass->results) r.correctness.reset();
  }
  in.no_jit = nojit;
  in.forced_jit = forced;
  Checklist c;
  check_workload(in, c);
  const Finding* no = c.find("no-jit");
  ASSERT_NE(no, nullptr);
  EXPECT_EQ(no->outcome, Outcome::Warn);
  EXPECT_TRUE(contains(no->summary, "norm/rmsnorm/f16/S")) << no->summary;
  EXPECT_TRUE(contains(no->fix, "add 9.0")) << no->fix;
  const Finding* fj = c.find("forced-jit");
  ASSERT_NE(fj, nullptr);
  EXPECT_EQ(fj->outcome, Outcome::Warn);
  EXPECT_TRUE(contains(fj->summary, "matmul/gemm_tc/f16/S")) << fj->summary;
  EXPECT_TRUE(contains(fj->fix, "9.0+PTX")) << fj->fix;
  ASSERT_NE(c.find("forced-jit-libraries"), nullptr);
  EXPECT_EQ(c.find("forced-jit-libraries")->outcome, Outcome::Warn);
  const Finding* cost = c.find("jit-cost");
  ASSERT_NE(cost, nullptr);
  // rmsnorm has no SASS anywhere: its whole forced load is JIT; gemm_tc did not run from PTX.
  // layernorm: 405 ms forced minus its 5 ms SASS load in the no-JIT pass.
  EXPECT_TRUE(
      contains(cost->summary,
               "1600 ms over 2 own operator(s); largest: norm/rmsnorm/f16/S 1200 ms, norm/layernorm/f32/S 400 ms"))
      << cost->summary;
  EXPECT_EQ(diagnose(c), Diagnosis::Healthy) << "the JIT passes warn; only the blocking pass's failures fail";
}

TEST(DoctorReport, TextAndJson) {
  Checklist c;
  c.add(Finding(Layer::Hardware, "device-count", Outcome::Fail, "cudaGetDeviceCount failed", "no driver", "install it",
                {FieldCause::NoDriverInContainer}));
  c.add(Finding(Layer::Runtime, "environment", Outcome::Pass, "nothing set").with_details({"a", "b"}));
  const std::string text = format_checklist(c);
  EXPECT_TRUE(contains(text, "1. hardware & driver")) << text;
  EXPECT_TRUE(contains(
      text, "  FAIL  [device-count] cudaGetDeviceCount failed\n        cause: no driver\n        fix:   install it\n"))
      << text;
  EXPECT_TRUE(contains(text, "        root cause: no-driver-in-container (docs/reference/field-causes.md)\n")) << text;
  EXPECT_TRUE(contains(text, "        - b\n")) << text;
  EXPECT_TRUE(contains(text, "4. workload")) << text;
  EXPECT_TRUE(contains(format_summary(c, 3, "no usable CUDA driver or device"),
                       "1 FAIL, 0 WARN, 1 PASS, 0 SKIP -> no usable CUDA driver or device (exit 3)"));
  const auto j = doctor_to_json({{"driver", "none"}}, c, 3, "no usable CUDA driver or device");
  EXPECT_EQ(j.at("schema"), "archbench.doctor");
  EXPECT_EQ(j.at("schema_version"), kDoctorSchemaVersion);
  EXPECT_EQ(j.at("exit_code"), 3);
  EXPECT_EQ(j.at("layers").at("hardware"), "FAIL");
  EXPECT_EQ(j.at("layers").at("runtime"), "PASS");
  EXPECT_EQ(j.at("layers").at("build"), "SKIP");
  EXPECT_EQ(j.at("checks").at(0).at("fix"), "install it");
  EXPECT_EQ(j.at("checks").at(0).at("guide_causes"), nlohmann::json::array({"no-driver-in-container"}));
  EXPECT_EQ(j.at("manifest").at(0).at("key"), "driver");
}

}  // namespace
}  // namespace archbench::doctor
