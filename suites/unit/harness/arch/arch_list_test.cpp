// The arch-list grammar against PyTorch's and CMake's documented behaviour (docs/reference/compat.md,
// "Arch-list grammars").
#include <vector>
#include <string>
#include <gtest/gtest.h>

#include "harness/arch/arch_list.hpp"
#include "suites/unit/toolkit_fixture.hpp"

namespace archbench::arch {
namespace {

std::string resolve(std::string_view text, const Toolkit& tk = test::nvcc_13_0()) {
  return join_names(parse_arch_list(text, tk).targets);
}

std::string error_of(std::string_view text, const Toolkit& tk = test::nvcc_13_0()) {
  try {
    (void)parse_arch_list(text, tk);
  } catch (const ArchListError& e) {
    return e.what();
  }
  return "";
}

struct Valid {
  const char* list;
  const char* targets;
};

class ValidList : public testing::TestWithParam<Valid> {};

TEST_P(ValidList, ResolvesToTargets) { EXPECT_EQ(resolve(GetParam().list), GetParam().targets) << GetParam().list; }

INSTANTIATE_TEST_SUITE_P(
    Torch, ValidList,
    testing::Values(
        Valid{"8.0", "sm_80"},
        Valid{"8.0+PTX", "sm_80 compute_80"},
        Valid{"7.5;8.0;8.6;9.0;10.0;12.0+PTX", "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120 compute_120"},
        Valid{"7.5 8.0 8.6+PTX", "sm_75 sm_80 sm_86 compute_86"},            // whitespace separators
        Valid{"  9.0  ", "sm_90"},                                          // surrounding blanks
        Valid{"8.0 ; 9.0", "sm_80 sm_90"},                                  // blanks around ';'
        Valid{"9.0;9.0", "sm_90"},                                          // PyTorch: one flag
        Valid{"9.0;8.0", "sm_80 sm_90"},                                    // sorted
        Valid{"9.0a", "sm_90a"},                                            // H200 host's env: SASS only
        Valid{"9.0a+PTX", "sm_90a compute_90a"},
        Valid{"10.0f", "sm_100f"},
        Valid{"12.0f+PTX", "sm_120f compute_120f"},
        Valid{"8.0 9.0+PTX", "sm_80 sm_90 compute_90"},                     // PyTorch's example
        Valid{"Hopper", "sm_90 compute_90"},                                // PyTorch: sm_90 + compute_90
        Valid{"Ampere", "sm_80 sm_86 compute_86"},
        Valid{"Ampere+Tegra", "sm_87"},
        Valid{"Ada", "sm_89 compute_89"},
        Valid{"Turing", "sm_75 compute_75"},
        Valid{"Ampere;Blackwell", "sm_80 sm_86 sm_100 sm_103 sm_120 sm_121 compute_86 compute_121"},
        Valid{"Blackwell+Tegra", "sm_110"},
        Valid{"Ampere;Hopper", "sm_80 sm_86 sm_90 compute_86 compute_90"},
        Valid{"8.6(8.0)", "sm_86"},                                         // SASS 8.6 built from compute_80
        Valid{"8.6(8.0)+PTX", "sm_86 compute_80"},
        Valid{"10.3f(10.0f)", "sm_103f"}),
    [](const testing::TestParamInfo<Valid>& info) { return "torch" + std::to_string(info.index); });

INSTANTIATE_TEST_SUITE_P(
    CMake, ValidList,
    testing::Values(
        Valid{"80", "sm_80 compute_80"},                                    // plain N = SASS + PTX
        Valid{"80-real", "sm_80"},
        Valid{"90-virtual", "compute_90"},
        Valid{"80-real;90-virtual;90", "sm_80 sm_90 compute_90"},
        Valid{"90a-real", "sm_90a"},
        Valid{"100f", "sm_100f compute_100f"},
        Valid{"all-major", "sm_75 sm_80 sm_90 sm_100 sm_110 sm_120 compute_120"},
        Valid{"all", "sm_75 sm_80 sm_86 sm_87 sm_88 sm_89 sm_90 sm_100 sm_103 sm_110 sm_120 sm_121 compute_120"}),
    [](const testing::TestParamInfo<Valid>& info) { return "cmake" + std::to_string(info.index); });

struct Invalid {
  const char* list;
  const char* says;
};

class InvalidList : public testing::TestWithParam<Invalid> {};

TEST_P(InvalidList, IsRejectedWithReason) {
  const std::string e = error_of(GetParam().list);
  ASSERT_FALSE(e.empty()) << "accepted: '" << GetParam().list << "'";
  EXPECT_NE(e.find(GetParam().says), std::string::npos) << e;
  // Every rejection also says what this nvcc supports and which names exist.
  EXPECT_NE(e.find("nvcc 13.0 supports: 7.5 8.0 8.6 8.7 8.8 8.9 9.0 9.0a 10.0 10.0a 10.0f"), std::string::npos) << e;
  EXPECT_NE(e.find("names: Kepler+Tesla"), std::string::npos) << e;
}

INSTANTIATE_TEST_SUITE_P(
    Both, InvalidList,
    testing::Values(
        Invalid{"7.0", "7.0 (from '7.0') is not supported by nvcc 13.0"},  // Volta removed in CUDA 13
        Invalid{"Volta", "7.0 (from '7.0+PTX') is not supported"},         // names map, then the toolkit rejects
        Invalid{"Pascal", "6.0 (from '6.0') is not supported"},
        Invalid{"bogus", "unknown arch 'bogus'"},
        Invalid{"8.0;bogus", "unknown arch 'bogus'"},                      // PyTorch: ValueError
        Invalid{"8.0;", "empty item"},
        Invalid{";8.0", "empty item"},
        Invalid{"8.0;;9.0", "empty item"},
        Invalid{"8.0+PTX+PTX", "'+PTX' given twice"},
        Invalid{"9.0f", "family 'f' targets exist from 10.0"},
        Invalid{"8.0a", "arch-specific 'a' targets exist from 9.0"},
        Invalid{"", "the list is empty"},
        Invalid{"   ", "the list is empty"},
        Invalid{"10.1", "10.1 (from '10.1') is not supported"},           // renamed to 11.0 in CUDA 13
        Invalid{"hopper", "did you mean 'Hopper'"},
        Invalid{"Hopper+PTX", "'+PTX' after a name is not accepted"},
        Invalid{"80;9.0", "use one grammar"},
        Invalid{"8.0;all", "must be the whole list"},
        Invalid{"70-real", "7.0 (from '70-real') is not supported"},
        Invalid{"8.0(8.6)", "SASS cannot be built from that PTX"},
        Invalid{"9.0a(9.0)", "SASS cannot be built from that PTX"},
        Invalid{"8.0.1", "unknown arch '8.0.1'"},
        Invalid{"sm_80", "unknown arch 'sm_80'"},
        Invalid{"868888868888", "unknown arch '868888868888'"},  // found by fuzzing: no int overflow
        Invalid{"99999999999.0", "unknown arch"},
        Invalid{"native", "needs GPU detection"}),
    [](const testing::TestParamInfo<Invalid>& info) { return "case" + std::to_string(info.index); });

TEST(ArchList, NativeWithoutAGpuIsAnError) {
  auto none = [] { return std::vector<ComputeCapability>{}; };
  try {
    (void)parse_arch_list("native", test::nvcc_13_0(), none);
    FAIL() << "accepted";
  } catch (const ArchListError& e) {
    EXPECT_NE(std::string(e.what()).find("no NVIDIA GPU was detected"), std::string::npos) << e.what();
  }
}

TEST(ArchList, NativeClampsToNewestSupportedAndAddsPtxToTheNewest) {
  auto detect = [] { return std::vector<ComputeCapability>{{9, 0}, {8, 6}, {9, 0}, {13, 0}}; };
  const auto list = parse_arch_list("native", test::nvcc_13_0(), detect);
  EXPECT_EQ(join_names(list.targets), "sm_86 sm_90 sm_121 compute_121");
}

TEST(ArchList, OlderToolkitAcceptsVoltaButNotBlackwell) {
  EXPECT_EQ(resolve("7.0;Volta", test::nvcc_12_4()), "sm_70 compute_70");
  EXPECT_NE(error_of("10.0", test::nvcc_12_4()).find("not supported by nvcc 12.4"), std::string::npos);
}

TEST(ArchList, NvccFlagsNameTheVirtualArchOfEachTarget) {
  const auto list = parse_arch_list("8.6(8.0)+PTX;9.0a", test::nvcc_13_0());
  EXPECT_EQ(list.nvcc_flags(), (std::vector<std::string>{"-gencode=arch=compute_80,code=sm_86",
                                                         "-gencode=arch=compute_90a,code=sm_90a",
                                                         "-gencode=arch=compute_80,code=compute_80"}));
  EXPECT_EQ(list.grammar, Grammar::Torch);
  EXPECT_EQ(parse_arch_list("80-real", test::nvcc_13_0()).grammar, Grammar::CMake);
}

TEST(ArchList, DefaultListIsPyTorchCuda13SassPlusNewestPtx) {
  EXPECT_EQ(resolve(kDefaultArchList), "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120 compute_120");
}

TEST(Toolkit, ReadsNvccAnswersAndDerivesSuffixes) {
  const auto tk = test::nvcc_13_0();
  EXPECT_EQ(tk.version.str(), "13.0");
  EXPECT_EQ(tk.ptx_isa().str(), "9.0");
  EXPECT_TRUE(tk.supports(90, Suffix::ArchSpecific));
  EXPECT_FALSE(tk.supports(90, Suffix::FamilySpecific));
  EXPECT_TRUE(tk.supports(121, Suffix::FamilySpecific));
  EXPECT_FALSE(tk.supports(70, Suffix::None));
  EXPECT_THROW((void)Toolkit::from_nvcc_output("garbage", "sm_80"), std::invalid_argument);
  EXPECT_THROW((void)Toolkit::from_nvcc_output("release 13.0", "nothing"), std::invalid_argument);
}

TEST(Target, CanonicalNamesRoundTrip) {
  for (const char* n : {"sm_80", "sm_90a", "sm_100f", "compute_120", "compute_90a"}) {
    auto t = parse_target_name(n);
    ASSERT_TRUE(t.has_value()) << n;
    EXPECT_EQ(t->name(), n);
  }
  EXPECT_FALSE(parse_target_name("sm_").has_value());
  EXPECT_FALSE(parse_target_name("8.0").has_value());
  EXPECT_FALSE(parse_target_name("sm_8x").has_value());
}

}  // namespace
}  // namespace archbench::arch
