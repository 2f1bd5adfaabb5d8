// The attention family's registrations: shapes, head-dim coverage, twins, kernels, argument rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/ops/registry.hpp"
#include "kernels/attention/attention_kernels.hpp"
#include "kernels/attention/attention_operators.hpp"
#include "kernels/attention/flash_wgmma.hpp"
#include "suites/unit/sm90a_build.hpp"

namespace archbench::kernels::attention {
namespace {

// The family's own registrations, independent of which other families this build lists.
const Registry& family() {
  static const Registry r = [] {
    Registry reg;
    register_operators(reg);
    return reg;
  }();
  return r;
}

const Operator* find_op(const std::string& id) {
  for (const auto& op : family().all()) {
    if (op->id() == id) return op.get();
  }
  return nullptr;
}

std::string id(const std::string& name, DType d, const AttentionDims& dims) {
  return operator_id("attention", name, d, dims.str());
}

TEST(AttentionOperators, ShapesCoverTheWorkloadRowsAndEveryHeadDim) {
  std::set<std::string> shapes;
  std::set<int> dims;
  for (const auto& s : attention_shapes()) {
    shapes.insert(s.dims.str());
    dims.insert(s.dims.D);
  }
  for (const char* want : {"B2_H8_Nq4096_Nk4096_D40", "B2_H8_Nq4096_Nk77_D40", "B2_H10_Nq4096_Nk4096_D64",
                           "B2_H20_Nq1024_Nk1024_D64", "B1_H24_Nq4608_Nk4608_D128", "B2_H24_Nq4429_Nk4429_D64",
                           "B2_H8_Nq1024_Nk1024_D80", "B2_H8_Nq256_Nk256_D160"}) {
    EXPECT_TRUE(shapes.contains(want)) << want;
  }
  EXPECT_EQ(dims, (std::set<int>(kHeadDims.begin(), kHeadDims.end())));
}

TEST(AttentionOperators, EveryShapeHasTheTensorCoreKernelAndItsTwins) {
  for (const auto& s : attention_shapes()) {
    for (DType d : {DType::F16, DType::BF16}) {
      const Operator* own = find_op(id("flash_tc", d, s.dims));
      ASSERT_NE(own, nullptr) << id("flash_tc", d, s.dims);
      EXPECT_EQ(own->spec().impl, Impl::Own);
      EXPECT_EQ(own->spec().min_cc, (arch::ComputeCapability{8, 0}));
      EXPECT_DOUBLE_EQ(own->spec().flops, s.dims.flops());
      EXPECT_DOUBLE_EQ(own->spec().bytes, s.dims.bytes(d));
      ASSERT_EQ(own->kernels().size(), 1u);
      EXPECT_NE(own->kernels()[0].host_stub, nullptr);
      // The oracle twin exists at the same family, dtype and shape.
      ASSERT_FALSE(own->spec().oracle_twin.empty());
      EXPECT_EQ(own->spec().oracle_twin, "sdpa_cudnn");
      const Operator* twin = find_op(id(own->spec().oracle_twin, d, s.dims));
      ASSERT_NE(twin, nullptr) << own->spec().oracle_twin;
      EXPECT_EQ(twin->spec().impl, Impl::CuDNN);
      EXPECT_EQ(twin->spec().min_cc, (arch::ComputeCapability{8, 0}));
      EXPECT_TRUE(twin->kernels().empty());  // a library twin: its images are cuDNN's business
    }
    EXPECT_EQ(find_op(id("sdpa_cudnn", DType::F32, s.dims)), nullptr);  // cuDNN's fused path is f16/bf16
    for (DType d : {DType::F32, DType::F16, DType::BF16}) {
      const Operator* math = find_op(id("attention_math", d, s.dims));
      ASSERT_NE(math, nullptr) << id("attention_math", d, s.dims);
      EXPECT_EQ(math->spec().impl, Impl::CuBLAS);
      ASSERT_EQ(math->kernels().size(), 1u);  // its own softmax kernel
    }
    const Operator* simt = find_op(id("flash_simt", DType::F32, s.dims));
    EXPECT_EQ(simt != nullptr, s.own_f32) << s.dims.str();
  }
}

// The Hopper kernel: every shape flash_tc has (its head dims are all the kernel's), both 16-bit
// dtypes, CC 9.0, checked against the same library twin.
TEST(AttentionOperators, FlashWgmmaAtEveryFlashTcShapeWithItsTwin) {
  size_t flash_tc = 0;
  for (const auto& op : family().all()) {
    if (op->spec().name != "flash_tc") continue;
    ++flash_tc;
    const Operator* own = find_op(operator_id("attention", "flash_wgmma", op->spec().dtype, op->spec().shape));
    ASSERT_NE(own, nullptr) << op->id();
    EXPECT_EQ(own->spec().impl, Impl::Own);
    EXPECT_EQ(own->spec().min_cc, (arch::ComputeCapability{9, 0}));
    EXPECT_DOUBLE_EQ(own->spec().flops, op->spec().flops);
    EXPECT_DOUBLE_EQ(own->spec().bytes, op->spec().bytes);
    EXPECT_EQ(own->spec().oracle_twin, "sdpa_cudnn");
    EXPECT_NE(find_op(operator_id("attention", "sdpa_cudnn", op->spec().dtype, op->spec().shape)), nullptr);
  }
  EXPECT_EQ(registry().select("attention/flash_wgmma/f16/*,attention/flash_wgmma/bf16/*", {}).size(), flash_tc);
}

// FP8, in both formats: an own kernel beside every cuDNN FP8 twin, with the twin's problem (the
// same shape and bytes, one byte an element) and min_cc 9.0 for sm_90a's wgmma; e5m2 at exactly
// e4m3's shapes.
TEST(AttentionOperators, FlashWgmmaBesideEveryCudnnFp8TwinInBothFormats) {
  std::set<std::string> e4m3_shapes;
  for (const auto* twin : registry().select("attention/sdpa_cudnn/e4m3/*", {})) e4m3_shapes.insert(twin->spec().shape);
  ASSERT_EQ(e4m3_shapes.size(), 6u);  // every shape but SD1.5's two at d = 40
  for (const DType format : {DType::E4M3, DType::E5M2}) {
    const std::string name(dtype_name(format));
    const auto twins = registry().select("attention/sdpa_cudnn/" + name + "/*", {});
    std::set<std::string> shapes;
    for (const auto* twin : twins) {
      shapes.insert(twin->spec().shape);
      EXPECT_EQ(twin->spec().min_cc, (arch::ComputeCapability{9, 0}));
      EXPECT_EQ(twin->spec().min_cc_why, "cuDNN's FP8 attention");
      const Operator* own = find_op(operator_id("attention", "flash_wgmma", format, twin->spec().shape));
      ASSERT_NE(own, nullptr) << twin->id();
      EXPECT_EQ(own->spec().impl, Impl::Own);
      EXPECT_EQ(own->spec().min_cc, (arch::ComputeCapability{9, 0}));
      EXPECT_EQ(own->spec().min_cc_why, "wgmma");
      EXPECT_EQ(own->spec().oracle_twin, "sdpa_cudnn");
      EXPECT_DOUBLE_EQ(own->spec().bytes, twin->spec().bytes);
      const auto* f16 = registry().select("attention/flash_wgmma/f16/" + twin->spec().shape, {}).at(0);
      EXPECT_DOUBLE_EQ(own->spec().bytes, f16->spec().bytes / 2);
    }
    EXPECT_EQ(shapes, e4m3_shapes) << name;
    EXPECT_EQ(registry().select("attention/flash_wgmma/" + name + "/*", {}).size(), twins.size()) << name;
  }
}

// One kernel per dtype and head dim, compiled for sm_90a alone: its address exactly when the
// build has that target.
TEST(AttentionOperators, FlashWgmmaKernelsAreSingleTargetSm90a) {
  std::set<const void*> stubs;
  size_t ops = 0;
  for (const auto* op : registry().select("attention/flash_wgmma/*", {})) {
    ++ops;
    const auto kernels = op->kernels();
    const bool fp8 = is_fp8(op->spec().dtype);
    ASSERT_EQ(kernels.size(), fp8 ? 2u : 1u) << op->id();  // FP8: the V transpose runs first
    if (fp8) {
      EXPECT_EQ(kernels[1].name, "transpose_v_fp8");
      EXPECT_EQ(kernels[1].host_stub, fp8_transpose_v_kernel());
      ASSERT_TRUE(kernels[1].only.has_value());
      EXPECT_EQ(kernels[1].only->target.name(), "sm_90a");
    }
    const KernelRef& k = kernels[0];
    ASSERT_TRUE(k.only.has_value()) << k.name;
    EXPECT_EQ(k.only->target.name(), "sm_90a");
    EXPECT_EQ(k.only->why, "wgmma code is compiled only for sm_90a, when the arch list has 9.0 or 9.0a");
    EXPECT_EQ(k.host_stub != nullptr, testing_support::build_has_sm90a()) << k.name;
    EXPECT_EQ(k.name, "flash_attention_wgmma_" + std::string(dtype_name(op->spec().dtype)) + "_d" +
                          op->spec().shape.substr(op->spec().shape.rfind('D') + 1));
    stubs.insert(k.host_stub);
  }
  ASSERT_GT(ops, 0u);
  if (testing_support::build_has_sm90a()) {
    for (int d : kHeadDims) {
      EXPECT_NE(flash_attention_wgmma_kernel(DType::F16, d), flash_attention_wgmma_kernel(DType::BF16, d));
    }
    // One template, an instance per format: e4m3 and e5m2 Q, K, V are different kernels.
    for (int d : {64, 80, 128, 160}) {
      EXPECT_NE(flash_attention_wgmma_kernel(DType::E4M3, d), flash_attention_wgmma_kernel(DType::E5M2, d)) << d;
    }
    // The shapes share their head dim's kernel; each FP8 format has one for each head dim but 40.
    EXPECT_EQ(stubs.size(), 4 * kHeadDims.size() - 2);
    EXPECT_THROW((void)flash_attention_wgmma_kernel(DType::F32, 64), std::invalid_argument);
    EXPECT_THROW((void)flash_attention_wgmma_kernel(DType::F16, 96), std::invalid_argument);
    EXPECT_THROW((void)flash_attention_wgmma_kernel(DType::E4M3, 40), std::invalid_argument);  // 40-byte rows
    EXPECT_THROW((void)flash_attention_wgmma_kernel(DType::E5M2, 40), std::invalid_argument);
  }
}

// Without 9.0 or 9.0a in the list the probe answers from the build alone: missing on a 9.0 device,
// unsupported elsewhere; a launch says what the build lacks.
TEST(AttentionOperators, FlashWgmmaWithoutSm90aTargetSaysWhy) {
  if (testing_support::build_has_sm90a()) GTEST_SKIP() << "this build has the sm_90a kernels; the GPU suite probes them";
  for (const auto* op : registry().select("attention/flash_wgmma/*", {})) {
    (void)testing_support::expect_missing_without_sm90a(*op);
  }
  auto* p = reinterpret_cast<void*>(std::uintptr_t{0x10000});
  try {
    (void)prepare_flash_attention_wgmma(DType::F16, p, p, p, p, AttentionDims{2, 8, 100, 77, 64});
    FAIL() << "prepared without a kernel";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("this build has no sm_90a target"), std::string::npos) << e.what();
  }
}

// With the kernels built, prepare checks its arguments before any CUDA call (no GPU needed).
TEST(AttentionOperators, FlashWgmmaRejectsBadArgumentsBeforeTouchingTheGpu) {
  if (!testing_support::build_has_sm90a()) GTEST_SKIP() << "no sm_90a kernels in this build";
  auto* p = reinterpret_cast<void*>(std::uintptr_t{0x10000});
  auto* odd = reinterpret_cast<void*>(std::uintptr_t{0x10008});
  EXPECT_THROW((void)prepare_flash_attention_wgmma(DType::F16, p, p, p, p, AttentionDims{2, 8, 100, 77, 96}),
               std::invalid_argument);
  EXPECT_THROW((void)prepare_flash_attention_wgmma(DType::BF16, p, odd, p, p, AttentionDims{2, 8, 100, 77, 64}),
               std::invalid_argument);
  EXPECT_THROW((void)prepare_flash_attention_wgmma(DType::F32, p, p, p, p, AttentionDims{2, 8, 100, 77, 64}),
               std::invalid_argument);
  EXPECT_THROW((void)prepare_flash_attention_wgmma(DType::F16, p, p, p, p, AttentionDims{2, 8, 0, 77, 64}),
               std::invalid_argument);
  // FP8: the scales and a 16-byte aligned transposed-V buffer are required, d % 16 == 0.
  const auto* s = reinterpret_cast<const float*>(p);
  const FlashWgmmaFp8 fp8{s, s, s, s, p};
  FlashWgmmaFp8 no_scale = fp8;
  no_scale.scale_o = nullptr;
  FlashWgmmaFp8 unaligned = fp8;
  unaligned.v_transposed = odd;
  const std::pair<const FlashWgmmaFp8*, int> refused[] = {{nullptr, 64}, {&no_scale, 64}, {&fp8, 40}, {&unaligned, 64}};
  for (const DType format : {DType::E4M3, DType::E5M2}) {
    for (const auto& [operands, d] : refused) {
      EXPECT_THROW(
          (void)prepare_flash_attention_wgmma(format, p, p, p, p, AttentionDims{2, 8, 100, 77, d}, operands),
          std::invalid_argument)
          << dtype_name(format) << " d " << d;
    }
  }
}

// Transposed FP8 V rows hold whole 16-key blocks: 77 keys take 80 bytes a row.
TEST(AttentionOperators, TransposedFp8ValuesArePaddedToWholeKeyBlocks) {
  EXPECT_EQ(fp8_padded_keys(77), 80);
  EXPECT_EQ(fp8_padded_keys(4608), 4608);
  EXPECT_EQ(fp8_padded_keys(4429), 4432);
  EXPECT_EQ(fp8_transposed_v_bytes(AttentionDims{2, 8, 100, 77, 64}), size_t{16} * 64 * 80);
}

TEST(AttentionOperators, EveryOperatorIsOfTheFamilyAndTheRegistryListsIt) {
  ASSERT_FALSE(family().all().empty());
  for (const auto& op : family().all()) {
    EXPECT_EQ(op->spec().family, "attention");
    EXPECT_GT(op->spec().flops, 0);
    EXPECT_GT(op->spec().bytes, 0);
  }
  EXPECT_EQ(registry().select("attention/*", {}).size(), family().all().size());
}

TEST(AttentionOperators, OwnFp32PathCoversEveryHeadDim) {
  std::set<int> dims;
  for (const auto& s : attention_shapes()) {
    if (s.own_f32) dims.insert(s.dims.D);
  }
  EXPECT_EQ(dims, (std::set<int>(kHeadDims.begin(), kHeadDims.end())));
}

TEST(AttentionOperators, KernelsAreDistinctPerDtypeAndHeadDim) {
  std::set<const void*> stubs;
  for (int d : kHeadDims) {
    stubs.insert(flash_attention_kernel(DType::F16, d));
    stubs.insert(flash_attention_kernel(DType::BF16, d));
    stubs.insert(flash_attention_f32_kernel(d));
  }
  EXPECT_EQ(stubs.size(), 3 * kHeadDims.size());
  EXPECT_FALSE(stubs.contains(nullptr));
  EXPECT_THROW((void)flash_attention_kernel(DType::F32, 64), std::invalid_argument);
  EXPECT_THROW((void)flash_attention_kernel(DType::F16, 48), std::invalid_argument);
  EXPECT_THROW((void)flash_attention_f32_kernel(96), std::invalid_argument);
}

// Argument rules are checked before any CUDA call (so these run without a GPU). The pointers are
// never dereferenced: every call below must throw first.
TEST(AttentionOperators, LaunchRejectsBadArgumentsBeforeTouchingTheGpu) {
  auto* p = reinterpret_cast<void*>(std::uintptr_t{0x10000});
  auto* odd = reinterpret_cast<void*>(std::uintptr_t{0x10008});
  const AttentionDims ok{2, 8, 100, 77, 64};
  EXPECT_NO_THROW(validate_attention_args("t", p, p, p, p, ok));
  EXPECT_THROW(validate_attention_args("t", p, p, p, p, AttentionDims{2, 8, 100, 77, 48}), std::invalid_argument);
  EXPECT_THROW(validate_attention_args("t", p, p, p, p, AttentionDims{2, 8, 100, 0, 64}), std::invalid_argument);
  EXPECT_THROW(validate_attention_args("t", p, p, p, p, AttentionDims{2, 8, 0, 77, 64}), std::invalid_argument);
  EXPECT_THROW(validate_attention_args("t", p, p, p, p, AttentionDims{256, 256, 10, 10, 64}), std::invalid_argument);
  EXPECT_THROW(validate_attention_args("t", p, odd, p, p, ok), std::invalid_argument);
  EXPECT_THROW(validate_attention_args("t", p, p, nullptr, p, ok), std::invalid_argument);
  EXPECT_THROW(launch_flash_attention(DType::F16, p, p, p, p, AttentionDims{2, 8, 100, 77, 96}, nullptr),
               std::invalid_argument);
  EXPECT_THROW(launch_flash_attention(DType::F32, p, p, p, p, ok, nullptr), std::invalid_argument);
  EXPECT_THROW(launch_flash_attention_f32(static_cast<float*>(p), static_cast<float*>(odd), static_cast<float*>(p),
                                          static_cast<float*>(p), ok, nullptr),
               std::invalid_argument);
  try {
    launch_flash_attention(DType::BF16, p, p, p, p, AttentionDims{2, 8, 100, 77, 48}, nullptr);
    FAIL() << "head dim 48 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("head dim 48"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace archbench::kernels::attention
