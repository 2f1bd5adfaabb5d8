// The real output of the built archbench fits 120 columns, stdout and stderr alike: list, inspect
// (of archbench itself and of the toolkit's cuBLASLt, for several devices), doctor (no GPU here: it
// still prints every layer), and the unknown-device error.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "suites/unit/text_width.hpp"

namespace archbench {
namespace {

using testing_support::too_wide;

struct Output {
  std::string text;
  int code = -1;
};

// stdout and stderr together.
// `env`: variable assignments put before the command ("NAME=value ").
Output archbench(const std::string& args, const std::string& env = "") {
  const std::string cmd = env + "'" + ARCHBENCH_TEST_EXE + "' " + args + " 2>&1";
  Output out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.text.append(buf.data(), n);
  const int status = pclose(p);
  out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

const char* kDevices =
    "--device 9.0 --device 'RTX 4090' --device 7.0 --device 12.0@12.8 --device 'Jetson Orin' --device sm_90 "
    "--device 4090 --device V100 --device rtx5090";

TEST(CliWidth, List) {
  const Output o = archbench("list");
  EXPECT_EQ(o.code, 0) << o.text;
  EXPECT_NE(o.text.find("conv/conv_cudnn_nhwc/bf16/B2_C1280_H16_W16_K1280_3x3_s1"), std::string::npos) << o.text;
  EXPECT_EQ(too_wide(o.text), "");
}

TEST(CliWidth, InspectOwnExecutable) {
  const Output o = archbench(std::string("inspect '") + ARCHBENCH_TEST_EXE + "' " + kDevices);
  EXPECT_EQ(o.code, 1) << "7.0 has no image in this build\n" << o.text;
  EXPECT_EQ(too_wide(o.text), "") << o.text;
  const Output k = archbench(std::string("inspect '") + ARCHBENCH_TEST_EXE + "' --kernels --device 7.0 --device 9.0");
  EXPECT_EQ(too_wide(k.text), "") << k.text;
}

TEST(CliWidth, InspectCublasLt) {
  const std::string lib = "/usr/local/cuda/lib64/libcublasLt.so.13";
  if (!std::filesystem::exists(lib)) GTEST_SKIP() << lib << " is not installed";
  const Output o = archbench("inspect " + lib + " " + kDevices + " --driver 580");
  EXPECT_EQ(o.code, 1) << o.text;
  EXPECT_NE(o.text.find("kernel(s), e.g."), std::string::npos) << o.text;
  EXPECT_EQ(too_wide(o.text), "") << o.text;
}

TEST(CliWidth, Doctor) {
  const Output o = archbench("doctor --filter 'matmul/gemm_simt/*'");
  EXPECT_NE(o.text.find("4. workload"), std::string::npos) << o.text;
  EXPECT_EQ(too_wide(o.text), "") << o.text;
}

TEST(CliWidth, RunWithoutADevice) {
  // No GPU on any machine: an empty CUDA_VISIBLE_DEVICES hides them all.
  const Output o = archbench("run --filter 'matmul/*'", "CUDA_VISIBLE_DEVICES= ");
  EXPECT_EQ(o.code, 3) << o.text;
  EXPECT_NE(o.text.find("no usable CUDA device"), std::string::npos) << o.text;
  EXPECT_EQ(too_wide(o.text), "") << o.text;
}

TEST(CliHelp, EveryCommandsHelpFitsAndHasNoCli11Artifacts) {
  for (const char* cmd : {"", "run", "list", "inspect", "baseline", "baseline update", "compare", "merge", "report",
                          "resources", "doctor"}) {
    const Output o = archbench(std::string(cmd) + " --help");
    EXPECT_EQ(o.code, 0) << cmd << "\n" << o.text;
    EXPECT_EQ(too_wide(o.text), "") << cmd;
    for (const char* artifact : {" TEXT", " UINT", " FLOAT", " INT", "{false}", "{true}", ":POSITIVE", "REQUIRED"})
      EXPECT_EQ(o.text.find(artifact), std::string::npos) << "'" << artifact << "' in " << cmd << " --help:\n" << o.text;
  }
}

TEST(CliHelp, ErrorsOfTheIssue) {
  const Output timeout = archbench("run --op-timeout -1");
  EXPECT_EQ(timeout.code, 2);
  EXPECT_EQ(timeout.text,
            "archbench run: --op-timeout: must be a number of seconds above 0, not '-1'\n"
            "(`archbench run --help` lists the options)\n");
  const Output typo = archbench("run --devcie 0");
  EXPECT_EQ(typo.code, 2);
  EXPECT_EQ(typo.text,
            "archbench run: unknown option --devcie; did you mean --device?\n"
            "(`archbench run --help` lists the options)\n");
  const Output command = archbench("inspekt x");
  EXPECT_EQ(command.code, 2);
  EXPECT_NE(command.text.find("archbench: unknown command 'inspekt'; did you mean inspect?"), std::string::npos)
      << command.text;
}

TEST(CliWidth, UnknownDevice) {
  // inspect and scan give the same error, with the product table, both wrapped.
  for (const std::string command : {"inspect", "scan"}) {
    const Output o = archbench(command + " '" + ARCHBENCH_TEST_EXE + "' --device 'Voodoo 5'");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("unknown device 'Voodoo 5'"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("RTX PRO 6000 Blackwell"), std::string::npos) << o.text;
    EXPECT_EQ(too_wide(o.text), "") << command << ":\n" << o.text;
  }
}

}  // namespace
}  // namespace archbench
