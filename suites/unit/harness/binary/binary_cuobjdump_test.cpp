// Differential check against NVIDIA's cuobjdump: the same number of ELF and PTX images per target,
// on the nvcc fixtures and on a large real library. Skips when no cuobjdump is installed.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "harness/binary/binary_file.hpp"
#include "suites/unit/binary_fixtures.hpp"
#include "suites/unit/cuobjdump_tool.hpp"

namespace archbench {
namespace {

// Our images, named the way cuobjdump names them (docs/reference/compat.md, "Fatbin and cubin layout").
std::map<std::string, int> our_counts(const binary::BinaryFile& f) {
  std::map<std::string, int> counts;
  for (const auto& e : f.entries()) {
    if (!e.is_image) continue;
    const bool sass = e.target.kind == arch::ImageKind::Sass;
    // cuobjdump drops the `f` of an ELF entry but keeps its `a`.
    const auto suffix = sass && e.target.suffix == arch::Suffix::FamilySpecific ? std::string_view{} : arch::suffix_letter(e.target.suffix);
    ++counts["sm_" + std::to_string(e.target.arch) + std::string(suffix) + (sass ? " cubin" : " ptx")];
  }
  return counts;
}

void compare_with_cuobjdump(const std::string& path) {
  const auto& cuobjdump = test::find_cuobjdump();
  if (cuobjdump.empty()) GTEST_SKIP() << "no cuobjdump on PATH, in /usr/local/cuda/bin or from pip nvidia-cuda-cuobjdump";
  const auto listing = test::cuobjdump_list(cuobjdump, path);
  ASSERT_TRUE(listing.ok) << listing.output;
  const auto f = binary::BinaryFile::open(path);
  EXPECT_EQ(our_counts(f), listing.counts) << cuobjdump << " says:\n" << listing.output.substr(0, 2000);
}

class BinaryCuobjdump : public ::testing::TestWithParam<std::string> {};

TEST_P(BinaryCuobjdump, SameImagesPerTarget) { compare_with_cuobjdump(test::binary_fixture(GetParam())); }

INSTANTIATE_TEST_SUITE_P(BinaryNvcc, BinaryCuobjdump,
                         ::testing::Values("sm80", "ptx80", "sm80_ptx90", "sm90a", "sm100f", "sm120a_ptx120", "rdc",
                                           "mode_size", "mode_speed", "mode_none", "exe"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Thousands of containers and every a/f flavour that cuBLAS ships.
TEST(BinaryCuobjdumpLibrary, CublasLt) {
  const std::string lib = "/usr/local/cuda/lib64/libcublasLt.so.13";
  if (!std::filesystem::exists(lib)) GTEST_SKIP() << lib << " not installed";
  compare_with_cuobjdump(lib);
}

}  // namespace
}  // namespace archbench
