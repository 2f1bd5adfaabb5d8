// The conv family as registered: which operators exist at which shapes, their FLOP and byte counts against
// docs/reference/workload.md ("The operator set", "FLOP and byte formulas"), and that every own kernel names
// an existing twin.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "harness/ops/registry.hpp"
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/matmul/gemm_wgmma_tiling.hpp"
#include "suites/unit/sm90a_build.hpp"

namespace archbench {
namespace {

std::vector<const Operator*> conv_operators() {
  std::vector<const Operator*> ops;
  for (const auto& op : registry().all())
    if (op->spec().family == "conv") ops.push_back(op.get());
  return ops;
}

const Operator* find(const std::string& id) {
  for (const auto& op : registry().all())
    if (op->id() == id) return op.get();
  return nullptr;
}

// docs/reference/workload.md, "The operator set" (the conv row) and "FLOP and byte formulas": shape,
// GFLOP, MB at fp16.
struct Row {
  const char* shape;
  double gflop;
  double mbytes_f16;
  bool all_variants;
};
const std::vector<Row> kRows{
    {"B2_C320_H64_W64_K320_3x3_s1", 15.1, 12.3, true},
    {"B2_C1280_H16_W16_K1280_3x3_s1", 15.1, 32.1, false},
    {"B2_C1280_H8_W8_K1280_3x3_s1", 3.8, 30.2, false},
    {"B2_C2560_H16_W16_K1280_3x3_s1", 30.2, 62.9, false},
    {"B2_C320_H64_W64_K320_3x3_s2", 3.8, 8.4, true},
    {"B2_C960_H32_W32_K640_1x1_s1", 2.5, 7.8, true},
    {"B2_C4_H64_W64_K320_3x3_s1", 0.19, 5.3, true},
    {"B2_C320_H128_W128_K320_3x3_s1", 60.4, 43.8, false},
};

TEST(ConvOperators, EveryRowAtEveryPromisedVariant) {
  std::set<std::string> ids;
  for (const Operator* op : conv_operators()) EXPECT_TRUE(ids.insert(op->id()).second) << "duplicate " << op->id();
  size_t expected = 0;
  for (const Row& row : kRows) {
    std::vector<std::string> want{"conv_tc/f16", "conv_tc/bf16", "conv_cudnn_nhwc/f16", "conv_cudnn_nhwc/bf16"};
    // The Hopper kernel takes 64-channel slices: every shape but the 4-channel conv_in.
    if (std::string(row.shape) != "B2_C4_H64_W64_K320_3x3_s1") {
      want.insert(want.end(), {"conv_wgmma/f16", "conv_wgmma/bf16"});
    }
    if (row.all_variants) {
      for (const char* v : {"conv_simt/f32", "conv_cudnn_nhwc/f32", "conv_cudnn_nhwc/tf32", "conv_cudnn_nchw/f32",
                            "conv_cudnn_nchw/tf32", "conv_cudnn_nchw/f16", "conv_cudnn_nchw/bf16"}) {
        want.emplace_back(v);
      }
    }
    for (const auto& w : want) EXPECT_TRUE(ids.count("conv/" + w + "/" + row.shape)) << "missing conv/" << w << "/" << row.shape;
    expected += want.size();
  }
  EXPECT_EQ(ids.size(), expected);  // and nothing else
}

TEST(ConvOperators, FlopsAndBytesMatchTheWorkloadTable) {
  for (const Row& row : kRows) {
    const Operator* tc = find(std::string("conv/conv_tc/f16/") + row.shape);
    ASSERT_NE(tc, nullptr) << row.shape;
    EXPECT_NEAR(tc->spec().flops / 1e9, row.gflop, 0.05 + 0.005 * row.gflop) << row.shape;
    EXPECT_NEAR(tc->spec().bytes / 1e6, row.mbytes_f16, 0.1) << row.shape;
    if (row.all_variants) {
      const Operator* f32 = find(std::string("conv/conv_cudnn_nchw/f32/") + row.shape);
      ASSERT_NE(f32, nullptr);
      EXPECT_DOUBLE_EQ(f32->spec().bytes, 2 * tc->spec().bytes);
      EXPECT_DOUBLE_EQ(f32->spec().flops, tc->spec().flops);
    }
  }
}

TEST(ConvOperators, OwnKernelsNameTheirTwinAndKernels) {
  for (const Operator* op : conv_operators()) {
    const OperatorSpec& s = op->spec();
    SCOPED_TRACE(op->id());
    EXPECT_GT(s.flops, 0);
    EXPECT_GT(s.bytes, 0);
    EXPECT_FALSE(s.model.empty());
    if (s.impl == Impl::CuDNN) {
      EXPECT_TRUE(op->kernels().empty());
      EXPECT_TRUE(s.oracle_twin.empty());
      continue;
    }
    ASSERT_EQ(s.impl, Impl::Own);
    const auto kernels = op->kernels();
    ASSERT_FALSE(kernels.empty());
    if (s.name == "conv_wgmma") {
      // Checked at its own check shape, so no twin's error on the same inputs to answer to.
      EXPECT_TRUE(s.oracle_twin.empty());
      EXPECT_EQ(s.min_cc, (arch::ComputeCapability{9, 0}));
      // One per tile width and kind: unsplit, split-K's workspace partials, split-K in the cluster.
      // In 128- and 64-pixel tiles. The 1x1 (stride 1, unpadded) reads A as a matrix: its own kernels.
      ASSERT_EQ(kernels.size(), 2 * 3 * kernels::matmul::kConvWgmmaTileWidths.size());
      const bool matrix = s.shape.find("_1x1_s1") != std::string::npos;
      const std::string prefix = "conv_wgmma_" + std::string(dtype_name(s.dtype)) + (matrix ? "_1x1" : "");
      for (size_t i = 0; i < kernels.size(); ++i) {
        EXPECT_EQ(kernels[i].host_stub != nullptr, testing_support::build_has_sm90a()) << kernels[i].name;
        const std::string tile = i < kernels.size() / 2 ? "_n" : "_m64_n";
        EXPECT_EQ(kernels[i].name.rfind(prefix + tile, 0), 0u) << kernels[i].name;
      }
      const size_t widths = kernels::matmul::kConvWgmmaTileWidths.size();  // 256 first, then 224, 192, 160, ...
      EXPECT_EQ(kernels[3].name, prefix + "_n160");
      EXPECT_EQ(kernels[5].name, prefix + "_n96");
      EXPECT_EQ(kernels[widths].name, prefix + "_n256_splitk");
      EXPECT_EQ(kernels[2 * widths + 3].name, prefix + "_n160_splitk_cluster");
      EXPECT_EQ(kernels[3 * widths].name, prefix + "_m64_n256");
      continue;
    }
    EXPECT_EQ(s.oracle_twin, "conv_cudnn_nhwc");
    const Operator* twin = find(operator_id("conv", s.oracle_twin, s.dtype, s.shape));
    ASSERT_NE(twin, nullptr) << "the twin is not registered";
    EXPECT_EQ(twin->spec().impl, Impl::CuDNN);
    for (const auto& k : kernels) {
      EXPECT_NE(k.host_stub, nullptr) << k.name;
      EXPECT_FALSE(k.name.empty());
    }
    if (s.name == "conv_tc") {
      EXPECT_EQ(s.min_cc, (arch::ComputeCapability{8, 0}));
      EXPECT_EQ(kernels.front().name.rfind("conv_tc_" + std::string(dtype_name(s.dtype)) + "_m", 0), 0u)
          << kernels.front().name;
    }
  }
  // The 4-channel conv_in runs the 8-byte-copy variant; K = 640 and the small K = 1280 shape the
  // 128-wide sliced-K one, K = 320 and the larger K = 1280 shapes the 160-wide sliced-K one, and the
  // shape of at least 2e10 multiply-adds the 160-wide 4-warp one.
  const auto first_kernel = [&](const char* id) { return find(id)->kernels().front().name; };
  EXPECT_EQ(first_kernel("conv/conv_tc/bf16/B2_C4_H64_W64_K320_3x3_s1"),
            kernels::conv::conv_tc_kernel_name(DType::BF16, kernels::conv::plan_with_tile(kernels::conv::kTileC4)));
  EXPECT_EQ(first_kernel("conv/conv_tc/f16/B2_C960_H32_W32_K640_1x1_s1"),
            kernels::conv::conv_tc_kernel_name(DType::F16, kernels::conv::plan_with_tile(kernels::conv::kTileK128)));
  const std::pair<const char*, const char*> first_kernels[] = {
      {"conv/conv_tc/bf16/B2_C4_H64_W64_K320_3x3_s1", "conv_tc_bf16_m128_n64_k32_c4"},
      {"conv/conv_tc/f16/B2_C960_H32_W32_K640_1x1_s1", "conv_tc_f16_m128_n128_k64_sk2_c8"},
      {"conv/conv_tc/f16/B2_C1280_H8_W8_K1280_3x3_s1", "conv_tc_f16_m128_n128_k64_sk2_c8"},
      {"conv/conv_tc/f16/B2_C320_H64_W64_K320_3x3_s1", "conv_tc_f16_m128_n160_k64_sk2_c8"},
      {"conv/conv_tc/bf16/B2_C320_H128_W128_K320_3x3_s1", "conv_tc_bf16_m128_n160_k32_c8"},
      {"conv/conv_tc/bf16/B2_C2560_H16_W16_K1280_3x3_s1", "conv_tc_bf16_m128_n160_k64_sk2_c8"},
      {"conv/conv_tc/f16/B2_C1280_H16_W16_K1280_3x3_s1", "conv_tc_f16_m128_n160_k64_sk2_c8"},
  };
  for (const auto& [id, kernel] : first_kernels) EXPECT_EQ(first_kernel(id), kernel) << id;
}

}  // namespace
}  // namespace archbench

namespace archbench {
namespace {

// Without 9.0 or 9.0a in the arch list the Hopper convolution says why it cannot run: "missing" on
// a 9.0 device (with the fix), "unsupported" on the others.
TEST(ConvOperators, WgmmaWithoutSm90aTargetSaysWhy) {
  if (testing_support::build_has_sm90a()) GTEST_SKIP() << "this build has the sm_90a kernels; the GPU suite probes them";
  const auto ops = registry().select("conv/conv_wgmma/*", {});
  ASSERT_EQ(ops.size(), 14u);
  for (const auto* op : ops) EXPECT_TRUE(testing_support::expect_missing_without_sm90a(*op).agrees);
}

}  // namespace
}  // namespace archbench
