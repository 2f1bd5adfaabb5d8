// A large real library (thousands of containers, zstd everywhere): the whole index builds and is
// consistent. Timings are reported by hand, not asserted (no timing thresholds in tests).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "harness/binary/binary_file.hpp"

namespace archbench {
namespace {

TEST(BinaryLibrary, CublasLtKernelIndex) {
  const std::string lib = "/usr/local/cuda/lib64/libcublasLt.so.13";
  if (!std::filesystem::exists(lib)) GTEST_SKIP() << lib << " not installed";
  const auto f = binary::BinaryFile::open(lib);
  EXPECT_GT(f.container_count(), 1000);
  const auto kernels = f.kernels();
  ASSERT_FALSE(kernels.empty());
  for (size_t i = 0; i < kernels.size(); ++i) {
    EXPECT_FALSE(kernels[i].images.empty()) << kernels[i].mangled;
    EXPECT_FALSE(kernels[i].demangled.empty()) << kernels[i].mangled;
    if (i > 0) {
      EXPECT_LT(kernels[i - 1].mangled, kernels[i].mangled);
    }
  }
  // Deterministic despite the threads.
  const auto again = f.kernels();
  ASSERT_EQ(again.size(), kernels.size());
  for (size_t i = 0; i < kernels.size(); ++i) {
    EXPECT_EQ(again[i].mangled, kernels[i].mangled);
    EXPECT_EQ(again[i].images, kernels[i].images);
  }
}

}  // namespace
}  // namespace archbench
