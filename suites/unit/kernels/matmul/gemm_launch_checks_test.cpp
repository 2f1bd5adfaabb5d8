// The GEMM kernels' argument rules, on the host (no GPU needed): each violation is refused with
// the launcher's name and what is wrong.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/matmul/gemm_launch_checks.hpp"

namespace archbench::kernels::matmul {
namespace {

const void* at(std::uintptr_t address) { return reinterpret_cast<const void*>(address); }

std::string refusal(const GemmTiling& t, const void* a, int M, int N, int K) {
  try {
    validate_gemm_launch("launch_x", t, a, at(0x1000), at(0x2000), M, N, K);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(GemmLaunchChecks, AcceptsWhatTheKernelsTile) {
  EXPECT_EQ(refusal({128, 128, 8}, at(0x3000), 8192, 960, 320), "");
  EXPECT_EQ(refusal({128, 128, 8}, at(0x3000), 1, 1, 8), "");  // partial tiles are the kernel's business
  EXPECT_EQ(refusal({128, 256, 8, 8}, at(0x3000), 1, 8, 8), "");
}

TEST(GemmLaunchChecks, RefusesEachViolationByName) {
  EXPECT_NE(refusal({128, 128, 8}, at(0x3000), 0, 16, 16).find("launch_x: M and N must be >= 1"), std::string::npos);
  EXPECT_NE(refusal({128, 128, 8}, at(0x3000), 16, 16, 12).find("K must be a positive multiple of 8 (got 12)"),
            std::string::npos);
  EXPECT_NE(refusal({128, 128, 32}, at(0x3000), 16, 16, 48).find("multiple of 32"), std::string::npos);
  EXPECT_NE(refusal({128, 256, 8, 8}, at(0x3000), 16, 20, 16).find("N must be a multiple of 8 (got 20)"),
            std::string::npos);
  EXPECT_NE(refusal({128, 128, 8}, at(0x3004), 16, 16, 16).find("16-byte aligned"), std::string::npos);
  EXPECT_NE(refusal({128, 128, 8}, at(0x3000), 65536 * 128 + 1, 16, 16).find("too large for the launch grid"),
            std::string::npos);
}

}  // namespace
}  // namespace archbench::kernels::matmul
