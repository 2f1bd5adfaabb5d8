// ci/h200_sanitizers.sh's lists, checked without a GPU: the library-kernel substrings that
// racecheck, synccheck and initcheck skip never match one of archbench's own kernels (as the
// tools see them: mangled, namespaces and anonymous-namespace file tags included), still match
// the library kernels the H200 run flagged, every "provoking" test it runs apart exists, and
// racecheck leaves out exactly the tests that launch library kernels.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "harness/binary/binary_file.hpp"
#include "harness/ops/id_filter.hpp"

namespace archbench {
namespace {

namespace fs = std::filesystem;

// ARCHBENCH_TEST_FIXTURES is <source>/suites/fixtures.
fs::path source_dir() { return fs::path(ARCHBENCH_TEST_FIXTURES).parent_path().parent_path(); }

// A command's standard output; a test failure when it cannot run or exits non-zero.
std::string command_output(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "cannot run " << command;
    return {};
  }
  std::string text;
  std::array<char, 4096> buf{};
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), pipe)) > 0;) text.append(buf.data(), n);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command << " failed";
  return text;
}

// The script's answer to one of its --print-* options, one entry per line.
std::vector<std::string> script_list(const std::string& option) {
  std::vector<std::string> lines;
  std::istringstream in(command_output("bash '" + (source_dir() / "ci" / "h200_sanitizers.sh").string() + "' " + option));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// The GPU suite's test sources (suites/ops/*.cpp), concatenated.
std::string gpu_suite_sources() {
  std::string sources;
  for (const auto& f : fs::directory_iterator(source_dir() / "suites" / "ops")) {
    if (f.path().extension() != ".cpp") continue;
    std::ifstream in(f.path());
    sources.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return sources;
}

// Whether those sources define Suite.Name as a TEST or a TEST_F.
bool defines_test(const std::string& sources, const std::string& suite, const std::string& name) {
  return sources.find("TEST(" + suite + ", " + name + ")") != std::string::npos ||
         sources.find("TEST_F(" + suite + ", " + name + ")") != std::string::npos;
}

std::vector<std::string> library_kernel_substrings() { return script_list("--print-library-kernels"); }

TEST(SanitizerScript, LibraryKernelExclusionsNeverMatchAnOwnKernel) {
  const std::vector<std::string> excluded = library_kernel_substrings();
  ASSERT_FALSE(excluded.empty());
  const auto kernels = binary::BinaryFile::open(ARCHBENCH_TEST_EXE).kernels();
  // The executable must hold every family's kernels, or the check below proves little.
  for (const auto& family : fs::directory_iterator(source_dir() / "kernels")) {
    if (!family.is_directory()) continue;
    const bool has_cu = std::ranges::any_of(fs::directory_iterator(family.path()),
                                            [](const auto& f) { return f.path().extension() == ".cu"; });
    if (!has_cu) continue;
    const std::string name = family.path().filename().string();
    const std::string ns = "7kernels" + std::to_string(name.size()) + name;  // archbench::kernels::<family>
    EXPECT_TRUE(std::ranges::any_of(kernels, [&](const auto& k) { return k.mangled.find(ns) != std::string::npos; }))
        << "no kernel of kernels/" << name << " in " << ARCHBENCH_TEST_EXE;
  }
  for (const auto& k : kernels) {  // every kernel of the executable is ours to check
    for (const auto& s : excluded) {
      EXPECT_EQ(k.mangled.find(s), std::string::npos)
          << "kns=" << s << " would hide archbench's own kernel from racecheck, synccheck and initcheck: " << k.mangled
          << " (" << k.demangled << ")";
    }
  }
}

TEST(SanitizerScript, LibraryKernelExclusionsCoverTheKernelsTheH200Flagged) {
  const std::vector<std::string> excluded = library_kernel_substrings();
  // Mangled names as the tools saw them in the whole-suite run on the H200 (/work/notes/h200-s12,
  // racecheck, synccheck, initcheck) and, for SDPA, a subset run (docs/validation.md,
  // "Sanitizers on the H200").
  const std::vector<std::string> flagged = {
      "nvjet_sm90_hsh_192x192_64x4_1x4_h_bz_coopB_TNN",  // racecheck: cuBLAS f16 GEMM
      "nvjet_sm90_tst_64x32_64x16_1x4_h_bz_splitK_TNT",  // racecheck: cuBLAS split-K GEMM
      // initcheck: cuDNN's layout transform (this instance is in libcudnn_engines_precompiled.so 9)
      "_ZN5cudnn19engines_precompiled16nhwcToNchwKernelIfffLb1ELb0EL21cudnnKernelDataType_t0EEEvNS0_18nhwc2nchw_"
      "params_tIT1_EEPKT_PT0_",
      "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16",  // racecheck, synccheck: cuDNN SDPA
      // initcheck, second run: cuDNN's conv kernel reading the transform's scratch
      "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize32x32x8_stage3_warpsize1x2x1_g1_ffma_"
      "aligna4_alignc4_execute_kernel__5x_cudnn",
  };
  for (const auto& name : flagged) {
    EXPECT_TRUE(std::ranges::any_of(excluded, [&](const auto& s) { return name.find(s) != std::string::npos; }))
        << name << " is not excluded";
  }
}

TEST(SanitizerScript, ProvokingTestsExistInTheGpuSuite) {
  const std::string sources = gpu_suite_sources();
  const std::vector<std::string> provoking = script_list("--print-provoking-tests");
  ASSERT_FALSE(provoking.empty());
  for (const auto& test : provoking) {
    const auto dot = test.find('.');
    ASSERT_NE(dot, std::string::npos) << test;
    const std::string suite = test.substr(0, dot), name = test.substr(dot + 1);
    EXPECT_TRUE(defines_test(sources, suite, name)) << test << " is listed as provoking but no such test is in suites/ops";
  }
}


// gtest's filter patterns are fnmatch globs ('*', '?'), as the --filter language over operator ids.
bool skipped_by(const std::vector<std::string>& patterns, const std::string& test) {
  return std::ranges::any_of(patterns, [&](const auto& p) { return id_matches(p, test); });
}

struct RegistryTest {
  std::string id;    // matmul/gemm_tc/f16/M8192_N960_K320
  std::string impl;  // own, cublas, cudnn
  std::string test;  // Registry/OperatorTest.ImageAndCorrectness/matmul__gemm_tc__f16__M8192_N960_K320
};

// Every registry operator's test in the GPU suite, from `archbench list --json -` (no GPU needed).
std::vector<RegistryTest> registry_tests() {
  std::vector<RegistryTest> tests;
  const auto list = nlohmann::json::parse(command_output(std::string("'") + ARCHBENCH_TEST_EXE + "' list --json -"));
  for (const auto& op : list.at("operators")) {
    RegistryTest t;
    t.id = op.at("id").get<std::string>();
    t.impl = op.at("impl").get<std::string>();
    std::string name;
    for (char c : t.id) name += c == '/' ? std::string("__") : std::string(1, c);
    t.test = "Registry/OperatorTest.ImageAndCorrectness/" + name;
    tests.push_back(t);
  }
  return tests;
}

// racecheck skips a registry operator's test exactly when the operator is a library's (impl cublas
// or cudnn in `archbench list`): every own kernel stays under racecheck, no cuBLAS/cuDNN launch
// reaches it.
TEST(SanitizerScript, RacecheckSkipsExactlyTheLibraryOperators) {
  const std::vector<std::string> patterns = script_list("--print-racecheck-skipped-tests");
  ASSERT_FALSE(patterns.empty());
  size_t own = 0, library = 0;
  for (const auto& t : registry_tests()) {
    if (t.impl == "own") {
      ++own;
      EXPECT_FALSE(skipped_by(patterns, t.test)) << "racecheck would skip own operator " << t.id;
    } else {
      ++library;
      EXPECT_TRUE(skipped_by(patterns, t.test)) << "racecheck would run " << t.impl << " operator " << t.id;
    }
  }
  EXPECT_GT(own, 50U);
  EXPECT_GT(library, 50U);
}

// initcheck skips only the f16/bf16 math-path attention, and each of its patterns still selects a
// test (a rename would otherwise make it skip nothing, silently).
TEST(SanitizerScript, InitcheckSkipsOnlyHalfPrecisionMathAttention) {
  const std::vector<std::string> patterns = script_list("--print-initcheck-skipped-tests");
  ASSERT_FALSE(patterns.empty());
  const std::vector<RegistryTest> tests = registry_tests();
  for (const auto& p : patterns) {
    EXPECT_TRUE(std::ranges::any_of(tests, [&](const auto& t) { return id_matches(p, t.test); }))
        << "initcheck pattern " << p << " selects no test";
  }
  for (const auto& t : tests) {
    const bool half_math = t.id.starts_with("attention/attention_math/f16/") ||
                           t.id.starts_with("attention/attention_math/bf16/");
    EXPECT_EQ(skipped_by(patterns, t.test), half_math) << t.id;
  }
}

// The named tests racecheck skips exist (a rename would quietly put them back under racecheck).
TEST(SanitizerScript, RacecheckSkippedTestsExist) {
  const std::string sources = gpu_suite_sources();
  for (const auto& p : script_list("--print-racecheck-skipped-tests")) {
    if (p.front() == '*') continue;  // an operator pattern, checked above
    const auto dot = p.find('.');
    ASSERT_NE(dot, std::string::npos) << p;
    std::string suite = p.substr(0, dot);
    const std::string name = p.substr(dot + 1);
    if (const auto slash = suite.find('/'); slash != std::string::npos) {  // Twins/OracleTest: instantiated TEST_P
      EXPECT_NE(sources.find("TEST_P(" + suite.substr(slash + 1) + ","), std::string::npos) << p;
      continue;
    }
    if (name == "*") {
      EXPECT_NE(sources.find("(" + suite + ", "), std::string::npos) << p;
      continue;
    }
    EXPECT_TRUE(defines_test(sources, suite, name)) << p << " is skipped by racecheck but no such test is in suites/ops";
  }
}

}  // namespace
}  // namespace archbench
