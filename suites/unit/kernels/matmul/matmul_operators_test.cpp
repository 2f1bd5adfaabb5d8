// The matmul family's registrations, here the wgmma GEMM: present at every shape in both 16-bit
// dtypes, compiled for sm_90a alone, and in a build without that target missing with its reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "harness/ops/registry.hpp"
#include "harness/run/image_probe.hpp"
#include "kernels/matmul/gemm_wgmma_tiling.hpp"
#include "suites/unit/sm90a_build.hpp"

namespace archbench {
namespace {

using testing_support::build_has_sm90a;

TEST(MatmulOperators, WgmmaAtEveryShapeInBothHalfDtypes) {
  const auto ops = registry().select("matmul/gemm_wgmma/*", {});
  std::set<std::string> shapes;
  for (const auto* op : registry().select("matmul/gemm_tc/*", {})) shapes.insert(op->spec().shape);
  ASSERT_EQ(shapes.size(), 4u);
  EXPECT_EQ(ops.size(), 2 * shapes.size());
  for (const auto* op : ops) {
    EXPECT_TRUE(op->spec().dtype == DType::F16 || op->spec().dtype == DType::BF16) << op->id();
    EXPECT_TRUE(shapes.contains(op->spec().shape)) << op->id();
    EXPECT_EQ(op->spec().impl, Impl::Own);
    EXPECT_EQ(op->spec().min_cc, (arch::ComputeCapability{9, 0}));
  }
}

TEST(MatmulOperators, WgmmaKernelsAreSingleTargetSm90a) {
  for (const auto* op : registry().select("matmul/gemm_wgmma/*", {})) {
    const auto kernels = op->kernels();
    ASSERT_EQ(kernels.size(), kernels::matmul::kWgmmaTileWidths.size()) << op->id();
    std::set<const void*> stubs;
    for (const auto& k : kernels) {
      ASSERT_TRUE(k.only.has_value()) << k.name;
      EXPECT_EQ(k.only->target.name(), "sm_90a");
      EXPECT_EQ(k.only->why, "wgmma code is compiled only for sm_90a, when the arch list has 9.0 or 9.0a");
      EXPECT_EQ(k.host_stub != nullptr, build_has_sm90a()) << k.name;
      stubs.insert(k.host_stub);
    }
    if (build_has_sm90a()) {
      EXPECT_EQ(stubs.size(), kernels.size()) << op->id() << ": one kernel listed twice";
    }
  }
}

// Without 9.0 or 9.0a in the list the probe answers from the build alone (no CUDA call: nothing
// to load): missing on a 9.0 device, which a list with 9.0 would serve; unsupported elsewhere.
TEST(MatmulOperators, WgmmaWithoutSm90aTargetSaysWhy) {
  if (build_has_sm90a()) GTEST_SKIP() << "this build has the sm_90a kernels; the GPU suite probes their image";
  for (const auto* op : registry().select("matmul/gemm_wgmma/*", {})) {
    const ImageResult r = testing_support::expect_missing_without_sm90a(*op);
    EXPECT_TRUE(r.agrees);
    EXPECT_EQ(r.kernels.size(), kernels::matmul::kWgmmaTileWidths.size());
  }
}

}  // namespace
}  // namespace archbench
