// The norm and elementwise operators as registered: the ids baselines refer to are unchanged, the
// new operators exist in every dtype, their byte counts follow the formulas of
// docs/reference/workload.md ("FLOP and byte formulas"), and every
// operator names a kernel stub for the image probe.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "harness/ops/registry.hpp"

namespace archbench {
namespace {

const Operator* find(const std::string& id) {
  for (const auto& op : registry().all()) {
    if (op->id() == id) return op.get();
  }
  return nullptr;
}

TEST(MemoryBoundOperators, EarlierIdsAreUnchanged) {
  const std::vector<std::string> shapes{
      "norm/layernorm/{}/M8192_N320",
      "norm/layernorm_noaffine/{}/M4608_N3072",
      "norm/rmsnorm128/{}/B1_H24_N4608_D128",
      "norm/groupnorm/{}/B2_C320_H64_W64_G32",
      "norm/groupnorm_silu/{}/B2_C320_H64_W64_G32",
      "elementwise/silu/{}/B2_C320_H64_W64",
      "elementwise/gelu_tanh/{}/M4608_N12288",
      "elementwise/geglu/{}/M8192_N1280",
      "elementwise/residual_add/{}/B2_C320_H64_W64",
      "elementwise/upsample_nearest2x/{}/B2_C1280_H16_W16",
  };
  for (const std::string d : {"f32", "f16", "bf16"}) {
    for (std::string id : shapes) {
      id.replace(id.find("{}"), 2, d);
      EXPECT_NE(find(id), nullptr) << id;
    }
  }
}

TEST(MemoryBoundOperators, NewOperatorsInEveryDtype) {
  for (const std::string d : {"f32", "f16", "bf16"}) {
    for (const std::string& id :
         {"norm/groupnorm_nhwc/" + d + "/B2_H64_W64_C320_G32", "norm/groupnorm_nhwc_silu/" + d + "/B2_H64_W64_C320_G32",
          "elementwise/timestep_embedding/" + d + "/B2_D320", "elementwise/rope/" + d + "/B1_H24_N4608_D128"}) {
      const Operator* op = find(id);
      ASSERT_NE(op, nullptr) << id;
      EXPECT_EQ(op->spec().impl, Impl::Own);
      EXPECT_EQ(op->spec().flops, 0.0) << "memory-bound: judged by bytes";
    }
  }
}

TEST(MemoryBoundOperators, BytesFollowTheFormulas) {
  // GroupNorm: x read once, y written once.
  EXPECT_EQ(find("norm/groupnorm_nhwc/f32/B2_H64_W64_C320_G32")->spec().bytes, 2.0 * 4 * 2 * 320 * 64 * 64);
  EXPECT_EQ(find("norm/groupnorm_nhwc_silu/bf16/B2_H64_W64_C320_G32")->spec().bytes, 2.0 * 2 * 2 * 320 * 64 * 64);
  EXPECT_EQ(find("norm/groupnorm/f16/B2_C320_H64_W64_G32")->spec().bytes, 2.0 * 2 * 2 * 320 * 64 * 64);
  // Timestep embedding: 2 fp32 timesteps in, [2, 320] out.
  EXPECT_EQ(find("elementwise/timestep_embedding/f16/B2_D320")->spec().bytes, 4.0 * 2 + 2.0 * 2 * 320);
  EXPECT_EQ(find("elementwise/timestep_embedding/f32/B2_D320")->spec().bytes, 4.0 * 2 + 4.0 * 2 * 320);
  // RoPE: q in and out, plus the fp32 (cos, sin) table [4608, 64] read once.
  const double q = 24.0 * 4608 * 128;
  EXPECT_EQ(find("elementwise/rope/bf16/B1_H24_N4608_D128")->spec().bytes, 2.0 * 2 * q + 8.0 * 4608 * 64);
  EXPECT_EQ(find("elementwise/rope/f32/B1_H24_N4608_D128")->spec().bytes, 2.0 * 4 * q + 8.0 * 4608 * 64);
}

TEST(MemoryBoundOperators, EveryOperatorNamesItsKernels) {
  size_t seen = 0;
  for (const auto& op : registry().all()) {
    const std::string family = op->spec().family;
    if (family != "norm" && family != "elementwise") continue;
    ++seen;
    const auto kernels = op->kernels();
    ASSERT_FALSE(kernels.empty()) << op->id();
    std::set<const void*> stubs;
    for (const auto& k : kernels) {
      EXPECT_NE(k.host_stub, nullptr) << op->id() << " " << k.name;
      EXPECT_FALSE(k.name.empty()) << op->id();
      stubs.insert(k.host_stub);
    }
    EXPECT_EQ(stubs.size(), kernels.size()) << op->id() << ": one stub listed twice";
  }
  EXPECT_EQ(seen, 3u * (7 + 8));  // 7 norm and 8 elementwise operators in three dtypes
}

TEST(MemoryBoundOperators, DtypesHaveTheirOwnKernels) {
  const auto f16 = find("elementwise/rope/f16/B1_H24_N4608_D128")->kernels();
  const auto bf16 = find("elementwise/rope/bf16/B1_H24_N4608_D128")->kernels();
  EXPECT_NE(f16.front().host_stub, bf16.front().host_stub);
  const auto nchw = find("norm/groupnorm_silu/f32/B2_C320_H64_W64_G32")->kernels();
  const auto nhwc = find("norm/groupnorm_nhwc_silu/f32/B2_H64_W64_C320_G32")->kernels();
  EXPECT_NE(nchw.front().host_stub, nhwc.front().host_stub);
}

}  // namespace
}  // namespace archbench
