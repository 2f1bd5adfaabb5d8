// The build manifest compiled into this binary matches what configure resolved.
#include <gtest/gtest.h>

#include "harness/manifest/build_manifest.hpp"

namespace archbench {
namespace {

TEST(BuildManifest, CarriesTheResolvedTargets) {
  const auto& m = build_manifest();
  EXPECT_FALSE(m.arch_list.empty());
  EXPECT_TRUE(m.arch_list_source == "ARCHBENCH_ARCH_LIST" || m.arch_list_source == "TORCH_CUDA_ARCH_LIST" ||
              m.arch_list_source == "default");
  ASSERT_FALSE(m.targets.empty());
  for (const auto& t : m.targets) {
    EXPECT_GE(t.arch, 75) << t.name();
    if (t.kind == arch::ImageKind::Ptx) {
      EXPECT_TRUE(t.ptx_isa.known()) << t.name();
    }
  }
  EXPECT_EQ(m.sass().size() + m.ptx().size(), m.targets.size());
  EXPECT_FALSE(m.nvcc_version.empty());
  EXPECT_FALSE(m.git_revision.empty());
  EXPECT_NE(m.cublas_header_version.find('.'), std::string::npos);
}

TEST(BuildManifest, FormatsForVersionOutput) {
  const std::string s = format_manifest(build_manifest());
  EXPECT_NE(s.find("arch list:"), std::string::npos);
  EXPECT_NE(s.find("SASS:"), std::string::npos);
  EXPECT_NE(s.find("cuBLAS:"), std::string::npos);
}

}  // namespace
}  // namespace archbench
