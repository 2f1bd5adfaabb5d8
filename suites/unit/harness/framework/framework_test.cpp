// harness/framework without a GPU: the framework ops made from the registry, the kernel-family
// table, and the verdicts and findings made of a probe's answer.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/framework/framework_op.hpp"
#include "harness/framework/kernel_family.hpp"
#include "harness/framework/probe_answer.hpp"
#include "harness/ops/registry.hpp"

namespace archbench::framework {
namespace {

TEST(FrameworkOp, ShapesReadFromTheRegistrysIds) {
  const auto conv = parse_shape_dims("B2_C320_H64_W64_K320_3x3_s2");
  ASSERT_TRUE(conv.has_value());
  EXPECT_EQ(conv->at("C"), 320);
  EXPECT_EQ(conv->at("R"), 3);
  EXPECT_EQ(conv->at("s"), 2);
  EXPECT_EQ(parse_shape_dims("B1_H24_Nq4608_Nk4608_D128")->at("Nk"), 4608);
  EXPECT_FALSE(parse_shape_dims("M8192__K3").has_value());
  EXPECT_FALSE(parse_shape_dims("3x5").has_value());
  EXPECT_FALSE(parse_shape_dims("").has_value());
}

TEST(FrameworkOp, EveryLibraryTwinHasOneFrameworkOpAtItsShape) {
  const auto ops = framework_ops(registry().select("*", {}));
  size_t sdpa = 0, conv_cl = 0;
  for (const auto& f : ops) {
    EXPECT_NE(registry().select(f.twin, {}).size(), 0u) << f.twin;
    EXPECT_TRUE(f.id.starts_with("framework/" + f.op + "/")) << f.id;
    sdpa += f.op == "sdpa";
    conv_cl += f.op == "conv2d" && f.layout == Layout::ChannelsLast;
  }
  // FP8: the matmul only, as torch._scaled_mm; SDPA has no FP8 path in PyTorch (framework_op.cpp).
  EXPECT_EQ(sdpa, registry().select("attention/sdpa_cudnn/f16/*", {}).size() +
                      registry().select("attention/sdpa_cudnn/bf16/*", {}).size());
  for (DType format : {DType::E4M3, DType::E5M2}) {
    const std::string name(dtype_name(format));
    const auto fp8_twins = registry().select("matmul/gemm_cublas/" + name + "/*", {});
    ASSERT_FALSE(fp8_twins.empty()) << name;
    for (const auto* twin : fp8_twins) {
      const auto f = framework_op_for(twin->spec(), twin->id());
      ASSERT_TRUE(f.has_value()) << twin->id();
      EXPECT_EQ(f->id, "framework/matmul/" + name + "/" + twin->spec().shape);
      EXPECT_EQ(f->dtype, format);
    }
  }
  for (const char* format : {"e4m3", "e5m2"}) {  // PyTorch has no FP8 SDPA
    const auto* fp8_sdpa = registry().select("attention/sdpa_cudnn/" + std::string(format) + "/*", {}).at(0);
    EXPECT_FALSE(framework_op_for(fp8_sdpa->spec(), "x").has_value()) << format;
  }
  EXPECT_EQ(conv_cl, registry().select("conv/conv_cudnn_nhwc/*", {}).size());
  EXPECT_FALSE(framework_op_for(registry().select("matmul/gemm_tc/*", {}).at(0)->spec(), "x").has_value());
}

TEST(KernelFamily, TheTableNamesTheBackend) {
  EXPECT_EQ(kernel_family("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3_64x64x64_4x1x1"),
            KernelFamily::CudnnSdpa);
  EXPECT_EQ(kernel_family("void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128>>(Flash_fwd_params)"),
            KernelFamily::FlashAttention2);
  EXPECT_EQ(kernel_family("fmha_cutlassF_f16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<...>)"),
            KernelFamily::MemEfficient);
  EXPECT_EQ(kernel_family("nvjet_sm90_hsh_256x128_64x4_1x2_h_bz_coopA_NTN"), KernelFamily::CublasLt);
  EXPECT_EQ(kernel_family("void cudnn::ops::nchwToNhwcKernel<__half, __half, float, false, true>(...)"),
            KernelFamily::LayoutConversion);
  EXPECT_EQ(kernel_family("sm90_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x64"),
            KernelFamily::CudnnConv);
  EXPECT_EQ(kernel_family("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, double, double>(...)"),
            KernelFamily::AtenSoftmax);
  EXPECT_EQ(kernel_family("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(...)"),
            KernelFamily::AtenElementwise);
  EXPECT_EQ(kernel_family("triton_poi_fused_add_0"), KernelFamily::Triton);
  EXPECT_EQ(kernel_family("mystery"), KernelFamily::Other);
}

nlohmann::json variant(const char* backend, const char* status, double err, double gpu, const char* kernel) {
  return {{"backend", backend}, {"status", status}, {"rel_error", err}, {"gpu_us", gpu}, {"host_us", 20.0},
          {"kernels", {{{"name", kernel}, {"us", gpu}}}}, {"reason", status == std::string("ran") ? "" : "head dim 40"}};
}

nlohmann::json answer(nlohmann::json variants) {
  return {{"schema", "archbench.framework.probe"}, {"status", "ok"},
          {"ops", {{{"id", "framework/sdpa/f16/B2_H8_Nq4096_Nk4096_D40"}, {"op", "sdpa"}, {"dtype", "f16"},
                    {"variants", variants}}}}};
}

TEST(ProbeAnswer, TheDefaultSlowerThanTheFastestBackendIsAFinding) {
  const auto a = parse_probe_answer(answer(
      {variant("default", "ran", 3e-4, 300, "pytorch_flash::flash_fwd_kernel"),
       variant("cudnn", "ran", 3e-4, 200, "cudnn_generated_fort_native_sdpa_x"),
       variant("flash", "refused", 0, 0, ""), variant("math", "ran", 2e-4, 3000, "at::native::cunn_SoftMaxForward")}));
  const OpVerdict v = judge_op(a.ops.at(0));
  EXPECT_EQ(v.check, Check::Pass);
  ASSERT_NE(v.fastest, nullptr);
  EXPECT_EQ(v.fastest->backend, "cudnn");
  EXPECT_EQ(a.ops[0].variants[0].main_family(), KernelFamily::FlashAttention2);
  std::vector<FindingKind> kinds;
  for (const auto& f : v.findings) kinds.push_back(f.kind);
  EXPECT_EQ(kinds, (std::vector<FindingKind>{FindingKind::DefaultSlower, FindingKind::BackendRefused}));
  EXPECT_NE(v.findings[0].what.find("1.50x faster"), std::string::npos) << v.findings[0].what;
  for (const auto& f : v.findings) EXPECT_FALSE(f.fails());
}

TEST(ProbeAnswer, WrongResultsAndFailuresFailAndAWrongBackendIsNeverTheFastest) {
  auto a = parse_probe_answer(answer({variant("default", "ran", 0.5, 100, "cudnn_generated_fort_native_sdpa_x"),
                                      variant("math", "ran", 0.5, 50, "softmax")}));
  OpVerdict v = judge_op(a.ops.at(0));
  EXPECT_EQ(v.check, Check::Wrong);
  EXPECT_EQ(v.fastest, nullptr);
  ASSERT_FALSE(v.findings.empty());
  EXPECT_TRUE(v.findings[0].fails());
  nlohmann::json failed = variant("default", "failed", 0, 0, "");
  failed["image"] = "missing";
  failed.erase("rel_error");
  a = parse_probe_answer(answer({failed}));
  v = judge_op(a.ops.at(0));
  ASSERT_EQ(v.findings.size(), 1u);
  EXPECT_EQ(v.findings[0].kind, FindingKind::ImageMissing);
  EXPECT_THROW((void)parse_probe_answer({{"schema", "other"}}), std::runtime_error);
  EXPECT_THROW((void)parse_probe_answer(answer({variant("cudnn", "ran", 0, 1, "x")})), std::runtime_error);
  EXPECT_THROW((void)parse_probe_answer(answer({variant("default", "exploded", 0, 1, "x")})), std::runtime_error);
}

TEST(ProbeAnswer, LayoutConversionsOverTheirShareAreAFinding) {
  nlohmann::json def = variant("default", "ran", 1e-4, 100, "sm90_xmma_fprop_implicit_gemm");
  def["kernels"].push_back({{"name", "cudnn::ops::nchwToNhwcKernel"}, {"us", 30.0}});
  const auto a = parse_probe_answer(answer({def}));
  const OpVerdict v = judge_op(a.ops.at(0));
  ASSERT_EQ(v.findings.size(), 1u);
  EXPECT_EQ(v.findings[0].kind, FindingKind::LayoutConversion);
  EXPECT_EQ(a.ops[0].variants[0].main_family(), KernelFamily::CudnnConv);
}

TEST(ProbeAnswer, ExtensionBackendsCountWhenTheyRunAndFailOnlyWhenInstalledAndBroken) {
  nlohmann::json absent = {{"backend", "flash_attn"}, {"status", "not-installed"}, {"reason", "not installed"}};
  nlohmann::json dtype = {{"backend", "sageattention"}, {"status", "refused"}, {"reason", "takes f16, bf16 only"}};
  auto a = parse_probe_answer(answer({variant("default", "ran", 3e-4, 300, "cudnn_generated_fort_native_sdpa_x"),
                                      variant("xformers", "ran", 3e-4, 200, "fmha_cutlassF_f16_aligned_64x64"),
                                      absent, dtype}));
  OpVerdict v = judge_op(a.ops.at(0));
  EXPECT_EQ(a.ops[0].variants[2].status, VariantStatus::NotInstalled);
  ASSERT_NE(v.fastest, nullptr);
  EXPECT_EQ(v.fastest->backend, "xformers");
  ASSERT_EQ(v.findings.size(), 1u);  // neither the absent package nor the dtype it does not take
  EXPECT_EQ(v.findings[0].kind, FindingKind::DefaultSlower);
  EXPECT_NE(v.findings[0].fix.find("xformers.ops.memory_efficient_attention"), std::string::npos) << v.findings[0].fix;
  nlohmann::json broken = {{"backend", "xformers"}, {"status", "failed"}, {"reason", "import failed: undefined symbol"}};
  a = parse_probe_answer(answer({variant("default", "ran", 3e-4, 300, "cudnn_generated_fort_native_sdpa_x"), broken}));
  v = judge_op(a.ops.at(0));
  ASSERT_EQ(v.findings.size(), 1u);
  EXPECT_EQ(v.findings[0].kind, FindingKind::Failed);
  EXPECT_TRUE(v.findings[0].fails());
  EXPECT_EQ(kernel_family("void qk_int_sv_f8_attn_kernel<128u, 64u, 32u, 64u, 128u, (DataType)1>"),
            KernelFamily::SageAttention);
}

}  // namespace
}  // namespace archbench::framework

namespace archbench::framework {
namespace {

// The answer's denoiser steps, fixes included: the reader once iterated a temporary's items() (the
// H200 run with steps crashed there), which ASan reports as a use after free.
TEST(ProbeAnswer, DenoiserStepsAreRead) {
  nlohmann::json a = answer({variant("default", "ran", 1e-4, 10, "x")});
  a["steps"] = {{"status", "ok"}, {"diffusers", "0.42.1"},
                {"models", {{{"model", "sd15-unet"}, {"dtype", "float16"}, {"status", "ran"}, {"parameters", 8.6e8},
                             {"build_s", 2.0}, {"nan", false}, {"rel_error_vs_fp32", 1e-3}, {"wall_ms", 50.0},
                             {"gpu_busy_ms", 12.0}, {"launches", 1175},
                             {"kernels", {{{"name", "void cudnn::engines_precompiled::nchwToNhwcKernel"}, {"us", 3300.0}}}},
                             {"fixes_wall_ms", {{"channels_last", 40.0}, {"cuda_graph", 9.8}, {"sdpa_flash", nullptr}}}},
                            {{"model", "flux-dit"}, {"status", "failed"}, {"reason", "out of memory"}}}}};
  const ProbeAnswer p = parse_probe_answer(a);
  ASSERT_EQ(p.steps.size(), 2u);
  EXPECT_EQ(p.steps[0].fixes_wall_ms.size(), 3u);
  EXPECT_EQ(p.steps[0].kernels.at(0).family, KernelFamily::LayoutConversion);
  EXPECT_FALSE(p.steps[0].fixes_wall_ms[2].second.has_value());
  EXPECT_FALSE(p.steps[1].ran);
  EXPECT_EQ(p.steps[1].reason, "out of memory");
}

}  // namespace
}  // namespace archbench::framework

namespace archbench::framework {
namespace {

TEST(StepCalls, ACallIsTheFrameworkOpAtItsOpDtypeAndShape) {
  const auto ops = framework_ops(registry().select("*", {}));
  auto of = [&](StepCall c, DType dt) {
    const FrameworkOp* f = framework_op_of(c, dt, ops);
    return f ? f->id : std::string("-");
  };
  // SD1.5's resnet conv, NCHW: the NCHW op, not its channels_last twin; stride 2 when recorded.
  EXPECT_EQ(of({"conv2d", {{2, 320, 64, 64}, {320, 320, 3, 3}, {320}}, std::nullopt, 10, 1}, DType::F16),
            "framework/conv2d/f16/B2_C320_H64_W64_K320_3x3_s1");
  EXPECT_EQ(of({"conv2d", {{2, 320, 64, 64}, {320, 320, 3, 3}, {320}}, 2, 10, 1}, DType::F16),
            "framework/conv2d/f16/B2_C320_H64_W64_K320_3x3_s2");
  // Flux's MLP up projection: [1, 4608, 3072] x [12288, 3072]^T is the M4608 N12288 K3072 matmul.
  EXPECT_EQ(of({"linear", {{1, 4608, 3072}, {12288, 3072}, {12288}}, std::nullopt, 10, 1}, DType::BF16),
            "framework/matmul/bf16/M4608_N12288_K3072");
  EXPECT_EQ(of({"sdpa", {{2, 10, 4096, 64}, {2, 10, 4096, 64}, {2, 10, 4096, 64}}, std::nullopt, 10, 1}, DType::F16),
            "framework/sdpa/f16/B2_H10_Nq4096_Nk4096_D64");
  // Another shape, another dtype, an op archbench does not have: none.
  EXPECT_EQ(of({"sdpa", {{2, 10, 4096, 64}, {2, 10, 77, 64}}, std::nullopt, 10, 1}, DType::F16), "-");
  EXPECT_EQ(of({"conv2d", {{2, 320, 64, 64}, {320, 320, 3, 3}}, std::nullopt, 10, 1}, DType::F32), "framework/conv2d/f32/B2_C320_H64_W64_K320_3x3_s1");
  EXPECT_EQ(of({"softmax", {{2, 10, 4096, 4096}}, std::nullopt, 10, 1}, DType::F16), "-");
  EXPECT_TRUE(call_dims({"linear", {{4608, 3072}, {12288, 3000}}, std::nullopt, 1, 1}).empty());  // K disagrees
}

}  // namespace
}  // namespace archbench::framework
