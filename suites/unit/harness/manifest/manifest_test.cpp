// The build manifest compiled into this binary matches what configure resolved.
#include <gtest/gtest.h>

#include <string>

#include "harness/arch/arch_list.hpp"
#include "harness/arch/compat.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "suites/unit/toolkit_fixture.hpp"

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

// A build of family targets only, as configure records it (cli.configure_family_targets configures one): the
// manifest lists the `f` targets, and the prediction archbench makes from it for a kernel (the build's targets,
// as harness/run/image_probe takes them) serves each family and nothing else.
TEST(BuildManifest, AFamilyBuildListsAndServesItsFamilies) {
  BuildManifest m;
  m.arch_list = "10.0f 12.0f";
  m.targets = arch::parse_arch_list(m.arch_list, test::nvcc_13_0()).targets;
  const std::string text = format_manifest(m);
  EXPECT_NE(text.find("SASS:        sm_100f sm_120f\n"), std::string::npos) << text;
  EXPECT_NE(text.find("PTX:         none"), std::string::npos) << text;

  struct Case {
    arch::ComputeCapability cc;
    const char* label;
  };
  for (const Case& c : {Case{{10, 0}, "sass sm_100f"}, Case{{10, 3}, "sass sm_100f"}, Case{{12, 0}, "sass sm_120f"},
                        Case{{12, 1}, "sass sm_120f"}, Case{{9, 0}, "missing"}, Case{{11, 0}, "missing"},
                        Case{{8, 9}, "missing"}}) {
    const arch::Verdict v = arch::predict(arch::ImageSet{m.targets, {0, 0}}, arch::DeviceFacts{c.cc, {13000}});
    EXPECT_EQ(v.label(), c.label) << c.cc.str();
    if (!v.loads()) {
      EXPECT_NE(v.cause.find("sm_100f runs only on its family (10.0, 10.3); sm_120f runs only on its family (12.0, "
                             "12.1)"),
                std::string::npos)
          << c.cc.str() << ": " << v.cause;
    }
  }
}

}  // namespace
}  // namespace archbench
