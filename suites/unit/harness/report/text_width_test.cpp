// Every line a terminal gets from run, list, inspect and doctor fits 120 columns: the wrapping
// helpers themselves, and the run report rendered from a recorded H200 run (30 operators with the
// longest ids of the registry, suites/fixtures/run_h200_excerpt.json) plus failure rows with long
// causes. cli_width_test.cpp checks the real output of the built archbench.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "harness/arch/arch_list.hpp"
#include "harness/arch/target.hpp"
#include "harness/doctor/report.hpp"
#include "harness/report/console.hpp"
#include "harness/report/stored_run.hpp"
#include "harness/util/text_wrap.hpp"
#include "suites/unit/result_rows.hpp"
#include "suites/unit/text_width.hpp"

namespace archbench {
namespace {

using testing_support::too_wide;

TEST(TextWrap, WrapsAtSpacesWithItsPrefixes) {
  const auto lines = text::wrap_lines("one two three four five six", 12, "  ", "    ");
  EXPECT_EQ(lines, (std::vector<std::string>{"  one two", "    three", "    four", "    five six"}));
  EXPECT_EQ(text::wrap("short", 120, "- ", "  "), "- short\n");
  EXPECT_EQ(text::wrap_lines("", 20, "x ", "  "), (std::vector<std::string>{"x"}));
}

TEST(TextWrap, CutsALongWordAfterASeparatorElseAnywhere) {
  EXPECT_EQ(text::wrap_lines("B2_C1280_H16_W16_K1280_3x3_s1", 12, "", ""),
            (std::vector<std::string>{"B2_C1280_", "H16_W16_", "K1280_3x3_s1"}));
  EXPECT_EQ(text::wrap_lines("abcdefghijklmnop", 6, "", ""), (std::vector<std::string>{"abcdef", "ghijkl", "mnop"}));
  for (const auto& l : text::wrap_lines("/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudart.so.13.0.96", 30, "  ", "  "))
    EXPECT_LE(text::width(l), 30u) << l;
}

TEST(TextWrap, MaxLinesEndsInAnEllipsis) {
  const auto lines = text::wrap_lines("a b c d e f g h i j k l m n o p", 10, "", "", 2);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "f g h ...");
  EXPECT_LE(text::width(lines[1]), 10u);
}

TEST(TextWrap, ShortenCountsCodePointsNotBytes) {
  EXPECT_EQ(text::width("QKᵀ"), 3u);
  EXPECT_EQ(text::shorten("abcdefgh", 6), "abc...");
  EXPECT_EQ(text::shorten("abc", 6), "abc");
  EXPECT_EQ(text::shorten("ααααααα", 5), "αα...");
}

TEST(TextWrap, WrapTextKeepsEachLinesIndent) {
  const std::string t = text::wrap_text("head\n    aaaa bbbb cccc dddd\n", 16);
  EXPECT_EQ(t, "head\n    aaaa bbbb\n      cccc dddd\n");
}

TEST(TextWrap, FieldsStayWholeOnALine) {
  const std::string s =
      text::wrap_fields({"build: arch list \"9.0\" -> SASS sm_90", "PTX none", "nvcc 13.0", "abcdef012345"}, " | ", 50,
                        "", "  ");
  EXPECT_EQ(s, "build: arch list \"9.0\" -> SASS sm_90 | PTX none\n  nvcc 13.0 | abcdef012345\n");
}

TEST(TextTable, NarrowsWrappableColumnsAndWrapsTheirCells) {
  text::Table t({{"name"}, {"shape", false, true, 8}, {"ms", true}}, "  ");
  t.add_group("conv");
  t.add_row({"conv_cudnn_nhwc", "B2_C1280_H16_W16_K1280_3x3_s1", "0.030"});
  t.add_row({"conv_tc", "B2_C320_H64_W64_K320_3x3_s1", "12.906"});
  const std::string s = t.render(44);
  EXPECT_EQ(too_wide(s, 44), "") << s;
  EXPECT_EQ(s,
            "  name             shape                  ms\n"
            "conv\n"
            "  conv_cudnn_nhwc  B2_C1280_H16_W16_   0.030\n"
            "                   K1280_3x3_s1\n"
            "  conv_tc          B2_C320_H64_W64_   12.906\n"
            "                   K320_3x3_s1\n");
  EXPECT_NE(t.render(120).find("  conv_cudnn_nhwc  B2_C1280_H16_W16_K1280_3x3_s1   0.030\n"), std::string::npos)
      << "no wrap when it fits\n" << t.render(120);
}

TEST(TextTable, AHeaderWiderThanItsCellsTakesTwoLinesFirst) {
  text::Table t({{"operator"}, {"check, rel err", false, true, 4}, {"shape", false, true, 4}});
  t.add_row({"gemm", "ok 2.1e-04", "M4096_N4096_K4096"});
  const std::string s = t.render(42);
  EXPECT_EQ(too_wide(s, 42), "") << s;
  EXPECT_NE(s.find("M4096_N4096_K4096"), std::string::npos) << "the shape is not narrowed first\n" << s;
  EXPECT_NE(s.find("check,"), std::string::npos) << s;
}

BuildManifest default_build() {
  BuildManifest m;
  m.arch_list = std::string(arch::kDefaultArchList);
  m.arch_list_source = "default";
  m.arch_grammar = "torch";
  for (const char* t : {"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120"})
    m.targets.push_back(*arch::parse_target_name(t));
  m.nvcc_version = "13.0";
  m.git_revision = "19564f9d1372";
  m.archbench_version = "0.1.0";
  return m;
}

// Rows that fail in the longest ways the report knows.
std::vector<OperatorResult> failing_rows() {
  OperatorResult missing = testing_support::named_result("conv/conv_tc/bf16/B2_C1280_H16_W16_K1280_3x3_s1");
  missing.image.status = ImageOutcome::Missing;
  missing.image.label = "missing";
  missing.image.cause =
      "built for SASS sm_100, sm_103, sm_120, sm_121 and PTX none; a 9.0 device needs SASS 9.x (<= 9.0) or PTX <= "
      "compute_90: sm_100 is another major (SASS runs only within its major); sm_103 is another major (SASS runs only "
      "within its major); sm_120 is another major (SASS runs only within its major); sm_121 is another major (SASS "
      "runs only within its major); no PTX to JIT";
  missing.image.fix = "add 9.0 to ARCHBENCH_ARCH_LIST (TORCH_CUDA_ARCH_LIST) for SASS on this device, or 8.0+PTX "
                      "for PTX the driver can JIT on any newer device";
  OperatorResult jit = missing;
  testing_support::set_identity(jit, "norm/groupnorm_nhwc_silu/bf16/B2_H64_W64_C320_G32");
  jit.image.status = ImageOutcome::PtxJit;
  jit.image.label = "ptx-jit from compute_120";
  jit.image.agrees = false;
  jit.image.disagreement = "the probe found sass sm_90 where the static prediction of the executable's images said "
                           "ptx-jit from compute_120; the build manifest and the executable disagree";
  OperatorResult nan = jit;
  testing_support::set_identity(nan, "attention/attention_math/bf16/B1_H24_Nq4608_Nk4608_D128");
  nan.impl = Impl::CuBLAS;
  nan.image.status = ImageOutcome::Sass;
  nan.image.label = "sass sm_90";
  nan.image.agrees = true;
  CorrectnessResult c;
  c.passed = false;
  c.rel_error = 1.25e-3;
  c.tolerance = 1e-2;
  c.bench_shape_finite = false;
  c.elements = 123456;
  c.check_shape = "B1_H24_Nq77_Nk77_D128";
  nan.correctness = c;
  OperatorResult hung = nan;
  testing_support::set_identity(hung, "composite/sd15_step/bf16/B2_H64_W64_C320_heads8_S3");
  hung.correctness.reset();
  hung.fault = WorkerFault::Hung;
  hung.error = "no result within its deadline of 132 s; the check worker was killed (SIGTERM, then SIGKILL after 5 s) "
               "while running it, and a new worker ran the operators after it";
  return {missing, jit, nan, hung};
}

TEST(ConsoleWidth, RecordedH200RunFits120Columns) {
  const StoredRun run = load_stored_run(std::string(ARCHBENCH_TEST_FIXTURES) + "/run_h200_excerpt.json");
  ASSERT_EQ(run.devices.size(), 1u);
  DeviceReport d;
  d.device = {0, "NVIDIA H200", {9, 0}, 132, size_t{150109880320}, 62914560, "GPU-ccb1cc65-50cd-e33f-df1d-d2472b586a79"};
  d.ceilings = run.devices[0].ceilings;
  d.operators = run.devices[0].results.operators;
  ASSERT_EQ(d.operators.size(), 30u);
  for (auto& r : failing_rows()) d.operators.push_back(r);
  Environment env;
  env.driver = arch::CudaVersion{13000};
  env.runtime = arch::CudaVersion{13000};
  RunReport report;
  report.devices.push_back(d);
  const std::string out = format_device_header(env, d, default_build()) + format_operator_table(d) +
                          format_findings(d) + format_summary(report);
  EXPECT_EQ(too_wide(out), "") << out;
  // Nothing is lost: every family heads its rows, every shape and name is there (perhaps wrapped).
  for (const char* family : {"\nmatmul\n", "\nnorm\n", "\nelementwise\n", "\nconv\n", "\nattention\n", "\ncomposite\n"})
    EXPECT_NE(out.find(family), std::string::npos) << family << "\n" << out;
  for (const auto& r : d.operators) {
    EXPECT_NE(out.find("  " + r.name + " "), std::string::npos) << r.name;
    EXPECT_NE(out.find(r.shape.substr(0, 10)), std::string::npos) << r.shape;
  }
  EXPECT_NE(out.find("timer floor 2.62 us"), std::string::npos) << out;
  EXPECT_NE(out.find("no PTX to JIT"), std::string::npos) << "findings keep the whole cause\n" << out;
  EXPECT_EQ(out.find("e4m3"), std::string::npos) << "no FP8 ceiling in this run, none shown";
  // A run with FP8 operators on an FP8 device measured cuBLASLt's FP8 GEMM: the header shows it, within 120 columns.
  ASSERT_TRUE(d.ceilings.has_value());
  d.ceilings->e4m3_tflops = 1576.1;
  const std::string fp8 = format_device_header(env, d, default_build());
  EXPECT_NE(fp8.find(" | e4m3 1576 TFLOP/s | copy"), std::string::npos) << fp8;
  EXPECT_EQ(too_wide(fp8), "") << fp8;
}

TEST(DoctorWidth, LongSummariesCausesDetailsAndVariablesFit) {
  using namespace doctor;
  const std::string require = "NVIDIA_REQUIRE_CUDA=cuda>=13.0" + [] {
    std::string s;
    for (int i = 0; i < 60; ++i) s += " brand=grid,driver>=535,driver<536";
    return s;
  }();
  const std::string kernels =
      "394 kernel(s), e.g. " + std::string(300, 'k') + ": missing: built for SASS sm_100, sm_120 and PTX compute_120; a "
      "9.0 device needs SASS 9.x (<= 9.0) or PTX <= compute_90: sm_100 is another major (SASS runs only within its "
      "major); sm_120 is another major (SASS runs only within its major); PTX compute_120 cannot target 9.0";
  Checklist c;
  c.add(Finding(Layer::Build, "library-images", Outcome::Warn,
                "cuDNN (libcudnn_graph.so.9.14.0, libcudnn.so.9.14.0, libcudnn_adv.so.9.14.0, libcudnn_cnn.so.9.14.0, "
                "libcudnn_engines_precompiled.so.9.14.0) on device 0 (NVIDIA H200, CC 9.0): 14701 of 17875 kernels "
                "have SASS for 9.0",
                std::string(300, 'c'), "fix " + std::string(200, 'f'),
                {FieldCause::NoSassForMajor, FieldCause::ArchOnlyOnSomePaths, FieldCause::HardcodedGencodeList,
                 FieldCause::PtxJitReliance, FieldCause::MixedCudaLibraries, FieldCause::VisibleDevicesMistake})
            .with_details({require, kernels, "/" + std::string(250, 'p')}));
  const std::string text = format_checklist(c);
  EXPECT_EQ(too_wide(text), "") << text;
  EXPECT_NE(text.find("        - NVIDIA_REQUIRE_CUDA=cuda>=13.0 brand=grid"), std::string::npos) << text;
  EXPECT_NE(text.find("(2070 characters; --json has it whole)\n"), std::string::npos) << text;
  EXPECT_NE(text.find(" ...\n"), std::string::npos) << "the kernel list is cut after four lines\n" << text;
  const auto manifest = format_environment_manifest({{"variables", "CUDA_HOME=/usr/local/cuda " + require}});
  EXPECT_EQ(too_wide(manifest), "") << manifest;
  EXPECT_NE(manifest.find("  variables     CUDA_HOME=/usr/local/cuda\n                NVIDIA_REQUIRE_CUDA="),
            std::string::npos)
      << manifest;
  const auto j = doctor_to_json({{"variables", require}}, c, 0, "healthy");
  EXPECT_EQ(j.at("checks").at(0).at("details").at(0), require) << "JSON keeps the whole value";
}

}  // namespace
}  // namespace archbench
