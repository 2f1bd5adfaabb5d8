// The matmul family's registrations, here the wgmma GEMM: present at every shape in both 16-bit
// dtypes and in FP8, compiled for sm_90a alone, and in a build without that target missing with its
// reason; FP8's verdicts on devices without FP8 tensor cores.
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

std::set<std::string> gemm_shapes() {
  std::set<std::string> shapes;
  for (const auto* op : registry().select("matmul/gemm_tc/*", {})) shapes.insert(op->spec().shape);
  return shapes;
}

TEST(MatmulOperators, WgmmaAtEveryShapeInBothHalfDtypesAndFp8) {
  const auto ops = registry().select("matmul/gemm_wgmma/*", {});
  const std::set<std::string> shapes = gemm_shapes();
  ASSERT_EQ(shapes.size(), 4u);
  EXPECT_EQ(ops.size(), 4 * shapes.size());
  for (const auto* op : ops) {
    const DType d = op->spec().dtype;
    EXPECT_TRUE(d == DType::F16 || d == DType::BF16 || is_fp8(d)) << op->id();
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

// Every shape has a cuBLASLt FP8 twin beside the own FP8 kernel, so the path table can compare them.
TEST(MatmulOperators, Fp8HasACublasTwinAtEveryShape) {
  for (const char* format : {"e4m3", "e5m2"}) {
    const auto twins = registry().select(std::string("matmul/gemm_cublas/") + format + "/*", {});
    std::set<std::string> shapes;
    for (const auto* op : twins) {
      shapes.insert(op->spec().shape);
      EXPECT_EQ(op->spec().impl, Impl::CuBLAS);
      EXPECT_EQ(op->spec().min_cc, (arch::ComputeCapability{8, 9})) << op->id();
      EXPECT_EQ(op->spec().flops, registry().select("matmul/gemm_tc/f16/" + op->spec().shape, {}).at(0)->spec().flops);
      const auto own = registry().select(std::string("matmul/gemm_wgmma/") + format + "/" + op->spec().shape, {});
      ASSERT_EQ(own.size(), 1u) << op->id();
      EXPECT_EQ(own.at(0)->spec().oracle_twin, "gemm_cublas") << op->id();
    }
    EXPECT_EQ(shapes, gemm_shapes()) << format;
  }
}

// Below FP8 tensor cores (8.9) an FP8 operator is "unsupported" with the reason, never "missing":
// no arch list gives an Ampere card FP8 tensor cores. The own kernel needs wgmma (9.0) as well.
TEST(MatmulOperators, Fp8OnOlderDevicesIsUnsupportedWithTheReason) {
  const arch::DeviceFacts a100{{8, 0}, {13000}, false, false};
  const auto* twin = registry().select("matmul/gemm_cublas/e4m3/M4096_N4096_K4096", {}).at(0);
  const ImageResult lt = probe_image(*twin, build_manifest(), a100);
  EXPECT_EQ(lt.status, ImageOutcome::Unsupported);
  EXPECT_EQ(lt.cause, "unsupported on this device (needs 8.9 for FP8 tensor cores, device is 8.0)");
  const auto* own = registry().select("matmul/gemm_wgmma/e4m3/M4096_N4096_K4096", {}).at(0);
  const ImageResult wgmma = probe_image(*own, build_manifest(), a100);
  EXPECT_EQ(wgmma.status, ImageOutcome::Unsupported);
  EXPECT_EQ(wgmma.cause, "unsupported on this device (needs 9.0 for wgmma, device is 8.0)");
  // On Ada (8.9) cuBLASLt serves FP8; the wgmma kernel still cannot run there.
  const arch::DeviceFacts l4{{8, 9}, {13000}, false, false};
  EXPECT_EQ(probe_image(*own, build_manifest(), l4).status, ImageOutcome::Unsupported);
  EXPECT_EQ(probe_image(*twin, build_manifest(), l4).status, ImageOutcome::Library);
  // On Blackwell (10.0) neither does the sm_90a code.
  const arch::DeviceFacts b200{{10, 0}, {13000}, false, false};
  EXPECT_EQ(probe_image(*own, build_manifest(), b200).status, ImageOutcome::Unsupported);
}

}  // namespace
}  // namespace archbench
