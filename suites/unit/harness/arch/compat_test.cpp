// The compatibility engine against every rule and table of docs/reference/compat.md: "Summary: which image a
// kernel gets", "PTX ISA, toolkit and driver", "Driver and runtime versions" and "Runtime behaviour
// without an image".
#include <vector>
#include <string>
#include <gtest/gtest.h>

#include "harness/arch/arch_list.hpp"
#include "harness/arch/compat.hpp"
#include "suites/unit/toolkit_fixture.hpp"

namespace archbench::arch {
namespace {

CodeTarget sass(int arch, Suffix s = Suffix::None, int from = 0) { return {ImageKind::Sass, arch, s, from ? from : arch, {}}; }
CodeTarget ptx(int arch, Suffix s = Suffix::None, PtxIsa isa = {9, 0}) { return {ImageKind::Ptx, arch, s, arch, isa}; }
ComputeCapability cc(int major, int minor) { return {major, minor}; }

// Targets as the build would have them (ISA of nvcc 13.0 on the PTX).
std::vector<CodeTarget> built(std::string_view list) {
  auto targets = parse_arch_list(list, test::nvcc_13_0()).targets;
  for (auto& t : targets) if (t.kind == ImageKind::Ptx) t.ptx_isa = {9, 0};
  return targets;
}

Verdict on(std::string_view list, ComputeCapability dev, int driver = 13000, ComputeCapability needs = {7, 5}) {
  return predict(ImageSet{built(list), needs}, DeviceFacts{dev, {driver}, false, false});
}

TEST(SassRule, SameMajorAndMinorAtLeast) {
  EXPECT_TRUE(sass_runs_on(sass(80), cc(8, 6)));
  EXPECT_TRUE(sass_runs_on(sass(80), cc(8, 9)));
  EXPECT_FALSE(sass_runs_on(sass(86), cc(8, 0)));
  EXPECT_FALSE(sass_runs_on(sass(80), cc(9, 0)));   // never across majors
  EXPECT_FALSE(sass_runs_on(sass(90), cc(10, 0)));
  EXPECT_TRUE(sass_runs_on(sass(100), cc(10, 3)));
  EXPECT_TRUE(sass_runs_on(sass(120), cc(12, 1)));
}

TEST(SassRule, ArchSpecificIsExact) {
  EXPECT_TRUE(sass_runs_on(sass(90, Suffix::ArchSpecific), cc(9, 0)));
  EXPECT_FALSE(sass_runs_on(sass(100, Suffix::ArchSpecific), cc(10, 3)));
  EXPECT_FALSE(sass_runs_on(sass(120, Suffix::ArchSpecific), cc(12, 1)));
}

TEST(SassRule, FamilyTable) {
  EXPECT_TRUE(sass_runs_on(sass(100, Suffix::FamilySpecific), cc(10, 3)));
  EXPECT_FALSE(sass_runs_on(sass(103, Suffix::FamilySpecific), cc(10, 0)));
  EXPECT_TRUE(sass_runs_on(sass(120, Suffix::FamilySpecific), cc(12, 1)));
  EXPECT_FALSE(sass_runs_on(sass(110, Suffix::FamilySpecific), cc(12, 0)));
  EXPECT_EQ(family_members(100), (std::vector<int>{100, 103}));
  EXPECT_EQ(family_members(121), (std::vector<int>{121}));
}

TEST(SassRule, SuffixAloneExcludes) {  // the plain twin would run there
  EXPECT_TRUE(suffix_excludes(sass(100, Suffix::ArchSpecific), cc(10, 3)));
  EXPECT_TRUE(suffix_excludes(sass(120, Suffix::ArchSpecific), cc(12, 1)));
  EXPECT_FALSE(suffix_excludes(sass(100, Suffix::ArchSpecific), cc(10, 0)));  // it runs
  EXPECT_FALSE(suffix_excludes(sass(90, Suffix::ArchSpecific), cc(12, 0)));   // sm_90 would not run either
  EXPECT_FALSE(suffix_excludes(sass(100, Suffix::FamilySpecific), cc(10, 3)));
  EXPECT_FALSE(suffix_excludes(sass(100), cc(10, 3)));
  EXPECT_FALSE(suffix_excludes(ptx(100, Suffix::ArchSpecific), cc(10, 3)));  // a SASS rule
}

TEST(SassRule, TegraNeedsExactMatch) {
  EXPECT_TRUE(is_tegra(87));
  EXPECT_TRUE(is_tegra(110));
  EXPECT_FALSE(is_tegra(86));
  EXPECT_FALSE(sass_runs_on(sass(80), cc(8, 7)));   // desktop SASS on Orin
  EXPECT_FALSE(sass_runs_on(sass(87), cc(8, 9)));   // Orin SASS on a desktop 8.9
  EXPECT_TRUE(sass_runs_on(sass(87), cc(8, 7)));
}

TEST(PtxRule, AnyNewerDeviceAcrossMajors) {
  EXPECT_TRUE(ptx_can_target(ptx(80), cc(9, 0)));
  EXPECT_TRUE(ptx_can_target(ptx(75), cc(12, 0)));
  EXPECT_FALSE(ptx_can_target(ptx(90), cc(8, 9)));
  EXPECT_TRUE(ptx_can_target(ptx(90, Suffix::ArchSpecific), cc(9, 0)));
  EXPECT_FALSE(ptx_can_target(ptx(90, Suffix::ArchSpecific), cc(10, 0)));  // compute_90a not on Blackwell
  EXPECT_TRUE(ptx_can_target(ptx(120, Suffix::FamilySpecific), cc(12, 1)));
  EXPECT_FALSE(ptx_can_target(ptx(100, Suffix::FamilySpecific), cc(12, 0)));
}

TEST(Predict, TheFourFoundationBuildsOnAnH200) {
  EXPECT_EQ(on("8.0", cc(9, 0)).status, ImageOutcome::Missing);
  EXPECT_EQ(on("8.0+PTX", cc(9, 0)).label(), "ptx-jit from compute_80");
  EXPECT_EQ(on("9.0", cc(9, 0)).label(), "sass sm_90");
  EXPECT_EQ(on("9.0a", cc(9, 0)).label(), "sass sm_90a");
}

TEST(Predict, MissingSaysWhyAndHowToFix) {
  const Verdict v = on("8.0", cc(9, 0));
  EXPECT_NE(v.cause.find("built for SASS sm_80 and PTX none"), std::string::npos) << v.cause;
  EXPECT_NE(v.cause.find("sm_80 is another major"), std::string::npos) << v.cause;
  EXPECT_NE(v.cause.find("PTX <= compute_90"), std::string::npos) << v.cause;
  EXPECT_NE(v.fix.find("add 9.0 to ARCHBENCH_ARCH_LIST"), std::string::npos) << v.fix;
  EXPECT_NE(v.fix.find("use 8.0+PTX"), std::string::npos) << v.fix;
  EXPECT_EQ(expected_cuda_error(v.status), 209);
}

TEST(Predict, ArchSpecificElsewhereIsMissing) {
  const Verdict v = on("9.0a", cc(10, 0));
  EXPECT_EQ(v.status, ImageOutcome::Missing);
  EXPECT_NE(v.cause.find("sm_90a runs only on exactly 9.0"), std::string::npos) << v.cause;
}

// The field failures of `a` and `f` builds (docs/arch-lists-and-verdicts.md, "`a` and `f` targets"): the
// cause names the rule that excludes the device, the fix what would serve it.
TEST(Predict, ArchSpecificOnAFamilyMemberSuggestsTheFamilyTarget) {  // vllm-project/vllm #56548
  const Verdict v = on("10.0a", cc(10, 3));
  EXPECT_EQ(v.status, ImageOutcome::Missing);
  EXPECT_NE(v.cause.find("sm_100a runs only on exactly 10.0; no PTX to JIT"), std::string::npos) << v.cause;
  EXPECT_EQ(v.fix, "add 10.3 to ARCHBENCH_ARCH_LIST (TORCH_CUDA_ARCH_LIST) for SASS on this device, or build 10.0f "
                   "instead of 10.0a (it runs on 10.0, 10.3) if the code needs no 10.0a-only feature, or add 10.0+PTX "
                   "so the driver can JIT it (plain PTX: compute_100a would JIT only for exactly 10.0)");
  EXPECT_EQ(on("10.0f", cc(10, 3)).label(), "sass sm_100f");
  // 12.0a on a DGX Spark (12.1): the same rule one family up.
  EXPECT_NE(on("12.0a", cc(12, 1)).fix.find("build 12.0f instead of 12.0a (it runs on 12.0, 12.1)"), std::string::npos);
}

TEST(Predict, SuffixedOnlyBuildSuggestsPlainPtx) {  // FlashAttention-3's sm_90a kernels on an RTX 5090
  const Verdict v = on("9.0a", cc(12, 0));
  EXPECT_EQ(v.status, ImageOutcome::Missing);
  EXPECT_EQ(v.cause, "built for SASS sm_90a and PTX none; a 12.0 device needs SASS 12.x (<= 12.0) or PTX <= "
                     "compute_120: sm_90a runs only on exactly 9.0; no PTX to JIT");
  EXPECT_EQ(v.fix, "add 12.0 to ARCHBENCH_ARCH_LIST (TORCH_CUDA_ARCH_LIST) for SASS on this device, or add 9.0+PTX so "
                   "the driver can JIT it (plain PTX: compute_90a would JIT only for exactly 9.0)");
  const Verdict f = on("10.0f", cc(12, 0));
  EXPECT_NE(f.cause.find("sm_100f runs only on its family (10.0, 10.3)"), std::string::npos) << f.cause;
  EXPECT_NE(f.fix.find("or add 10.0+PTX so the driver can JIT it (plain PTX: compute_100f would JIT only for its "
                       "family (10.0, 10.3))"),
            std::string::npos)
      << f.fix;
  // Nothing at or below an 8.9 device to put PTX on: only its own SASS helps.
  const Verdict older = on("9.0a", cc(8, 9));
  EXPECT_NE(older.cause.find("an 8.9 device needs SASS 8.x"), std::string::npos) << older.cause;
  EXPECT_EQ(older.fix, "add 8.9 to ARCHBENCH_ARCH_LIST (TORCH_CUDA_ARCH_LIST) for SASS on this device");
  // A plain entry below the device keeps the plain advice.
  EXPECT_NE(on("8.0;9.0a", cc(12, 0)).fix.find("or use 8.0+PTX so the driver can JIT it"), std::string::npos);
}

TEST(Predict, SuffixedPtxSaysWhereItJits) {
  const Verdict v = on("10.0a+PTX", cc(10, 3));
  EXPECT_EQ(v.status, ImageOutcome::Missing);
  EXPECT_NE(v.cause.find("PTX compute_100a cannot target 10.3 (compute_100a JIT-compiles only for exactly 10.0)"),
            std::string::npos)
      << v.cause;
  EXPECT_EQ(on("10.0a+PTX", cc(10, 0)).label(), "sass sm_100a");  // SASS first, as ever
  EXPECT_EQ(on("9.0a;8.0+PTX", cc(12, 0)).label(), "ptx-jit from compute_80");  // the portable path
  // Thor (11.0) was 10.1 up to CUDA 12.9; in CUDA 13 it is another major, outside 10.0f's family.
  EXPECT_EQ(on("10.0f", cc(11, 0)).status, ImageOutcome::Missing);
}

// Thor's two names (CUDA 13.0 renumbered sm_101 as sm_110): each loads only its own SASS, and the
// cause says why, in both directions.
TEST(Predict, ThorsOldAndNewNamesSayWhyTheyDoNotLoad) {
  const Verdict old_on_new = predict(ImageSet{{sass(101)}, {7, 5}}, DeviceFacts{cc(11, 0), {13000}});
  EXPECT_EQ(old_on_new.status, ImageOutcome::Missing);
  EXPECT_NE(old_on_new.cause.find("sm_101 is Thor's name before CUDA 13"), std::string::npos) << old_on_new.cause;
  const Verdict new_on_old = predict(ImageSet{{sass(110)}, {7, 5}}, DeviceFacts{cc(10, 1), {12090}});
  EXPECT_EQ(new_on_old.status, ImageOutcome::Missing);
  EXPECT_NE(new_on_old.cause.find("under a CUDA 12 driver Thor reports 10.1"), std::string::npos) << new_on_old.cause;
  EXPECT_EQ(predict(ImageSet{{sass(110)}, {7, 5}}, DeviceFacts{cc(11, 0), {13000}}).status, ImageOutcome::Sass);
}

TEST(Predict, SassBeatsAnExactlyMatchingPtx) {  // H200: compute_80->sm_90 + compute_90 PTX ran the SASS
  const Verdict v = predict(ImageSet{{sass(90, Suffix::None, 80), ptx(90)}, {7, 5}}, DeviceFacts{cc(9, 0), {13000}});
  EXPECT_EQ(v.status, ImageOutcome::Sass);
  EXPECT_EQ(v.image->virtual_arch, 80);
  EXPECT_EQ(v.label(), "sass sm_90 (from compute_80)");
}

TEST(Predict, NearestArchWins) {
  EXPECT_EQ(on("8.0;8.6", cc(8, 9)).label(), "sass sm_86");
  EXPECT_EQ(on("7.5+PTX;8.0+PTX", cc(9, 0)).label(), "ptx-jit from compute_80");
  EXPECT_EQ(on("7.5;8.0;8.6;9.0;10.0;12.0+PTX", cc(12, 1)).label(), "sass sm_120");
  EXPECT_EQ(on("7.5;8.0;8.6;9.0;10.0;12.0+PTX", cc(10, 3)).label(), "sass sm_100");
  EXPECT_EQ(on("7.5;8.0;8.6;9.0;10.0;12.0+PTX", cc(11, 0)).status, ImageOutcome::Missing);  // Thor: Tegra, < 12.0 PTX
  EXPECT_EQ(on("7.5;8.0;8.6;9.0;10.0;12.0+PTX", cc(13, 0)).label(), "ptx-jit from compute_120");
}

TEST(Predict, PtxIsaNewerThanTheDriverIs222) {
  const Verdict v = predict(ImageSet{{ptx(80, Suffix::None, {9, 2})}, {7, 5}}, DeviceFacts{cc(9, 0), {13000}});
  EXPECT_EQ(v.status, ImageOutcome::NeedsNewerDriver);
  EXPECT_EQ(expected_cuda_error(v.status), 222);
  EXPECT_NE(v.cause.find("ISA 9.2"), std::string::npos) << v.cause;
  EXPECT_NE(v.fix.find("r595"), std::string::npos) << v.fix;
  // A 12.8 driver (ISA 8.7) cannot JIT CUDA 13.0's PTX either.
  EXPECT_EQ(on("8.0+PTX", cc(9, 0), 12080).status, ImageOutcome::NeedsNewerDriver);
  // Unknown driver version: not judged.
  EXPECT_EQ(on("8.0+PTX", cc(9, 0), 0).status, ImageOutcome::PtxJit);
}

TEST(Predict, EnvironmentSwitches) {
  const ImageSet images{built("9.0;9.0+PTX"), {7, 5}};
  EXPECT_EQ(predict(images, DeviceFacts{cc(9, 0), {13000}, true, false}).label(), "ptx-jit from compute_90");
  const ImageSet sass_only{built("9.0"), {7, 5}};
  EXPECT_EQ(predict(sass_only, DeviceFacts{cc(9, 0), {13000}, true, false}).status, ImageOutcome::Missing);
  const ImageSet ptx_only{built("8.0+PTX"), {7, 5}};
  const Verdict v = predict(ptx_only, DeviceFacts{cc(9, 0), {13000}, false, true});
  EXPECT_EQ(v.status, ImageOutcome::JitDisabled);
  EXPECT_EQ(expected_cuda_error(v.status), 223);
}

TEST(Predict, BelowMinimumIsUnsupportedNotMissing) {
  const Verdict v = on("7.5;8.0", cc(7, 5), 13000, {8, 0});
  EXPECT_EQ(v.status, ImageOutcome::Unsupported);
  EXPECT_NE(v.cause.find("needs 8.0"), std::string::npos);
}

TEST(Predict, StubImagesBelowTheKernelsNeedsDoNotCount) {
  const Verdict v = on("7.5+PTX", cc(9, 0), 13000, {8, 0});
  EXPECT_EQ(v.status, ImageOutcome::Missing);
  EXPECT_NE(v.cause.find("lack the 8.0 features"), std::string::npos) << v.cause;
}

TEST(Reconcile, AgreesWhenTheRuntimeSaysTheSame) {
  const ImageSet images{built("8.0"), {7, 5}};
  const Verdict p = predict(images, DeviceFacts{cc(9, 0), {13000}});
  const auto r = reconcile(p, RuntimeProbe{209, "cudaErrorNoKernelImageForDevice", 0, 0}, images);
  EXPECT_TRUE(r.agrees);
  EXPECT_EQ(r.verdict.status, ImageOutcome::Missing);

  const ImageSet jit{built("8.0+PTX"), {7, 5}};
  const auto r2 = reconcile(predict(jit, DeviceFacts{cc(9, 0), {13000}}), RuntimeProbe{0, "", 90, 80}, jit);
  EXPECT_TRUE(r2.agrees) << r2.disagreement;
  EXPECT_EQ(r2.verdict.label(), "ptx-jit from compute_80");
}

TEST(Reconcile, DisagreementIsReportedWithBothSides) {
  const ImageSet images{built("9.0"), {7, 5}};
  const Verdict p = predict(images, DeviceFacts{cc(9, 0), {13000}});
  const auto r = reconcile(p, RuntimeProbe{209, "cudaErrorNoKernelImageForDevice", 0, 0}, images);
  EXPECT_FALSE(r.agrees);
  EXPECT_NE(r.disagreement.find("static prediction: sass sm_90"), std::string::npos) << r.disagreement;
  EXPECT_EQ(r.verdict.status, ImageOutcome::Missing);

  const ImageSet missing{built("8.0"), {7, 5}};
  const auto r2 = reconcile(predict(missing, DeviceFacts{cc(9, 0), {13000}}), RuntimeProbe{0, "", 90, 90}, missing);
  EXPECT_FALSE(r2.agrees);

  const ImageSet stub{built("9.0"), {8, 0}};
  const auto r3 = reconcile(predict(stub, DeviceFacts{cc(9, 0), {13000}}), RuntimeProbe{0, "", 90, 75}, stub);
  EXPECT_FALSE(r3.agrees);
  EXPECT_EQ(r3.verdict.status, ImageOutcome::Missing);
}

// CUDA_DISABLE_PTX_JIT=1 with a warm JIT cache: the driver loads what an earlier run JIT-compiled
// (seen on the H200, driver 580). The kernel runs from PTX, and the verdict says why it did.
TEST(Reconcile, JitDisabledButCachedIsPtxJitWithTheCause) {
  const ImageSet images{built("8.0+PTX"), {7, 5}};
  const Verdict p = predict(images, DeviceFacts{cc(9, 0), {13000}, false, true});
  ASSERT_EQ(p.status, ImageOutcome::JitDisabled);
  const auto cold = reconcile(p, RuntimeProbe{223, "cudaErrorJitCompilationDisabled", 0, 0}, images);
  EXPECT_TRUE(cold.agrees);
  EXPECT_EQ(cold.verdict.status, ImageOutcome::JitDisabled);
  const auto warm = reconcile(p, RuntimeProbe{0, "", 90, 80}, images);
  EXPECT_TRUE(warm.agrees) << warm.disagreement;
  EXPECT_EQ(warm.verdict.label(), "ptx-jit from compute_80");
  EXPECT_NE(warm.verdict.cause.find("JIT cache"), std::string::npos) << warm.verdict.cause;
  // Code from another virtual arch than the prediction's is not the cache: the binary holds more.
  const auto other = reconcile(p, RuntimeProbe{0, "", 90, 90}, images);
  EXPECT_FALSE(other.agrees);
  EXPECT_EQ(other.verdict.label(), "ptx-jit from compute_90");
}

// A kernel compiled for one arch-specific target of the list (the wgmma GEMM: sm_90a only).
namespace single_target {

const SingleTarget kWgmma{sass(90, Suffix::ArchSpecific), "wgmma code is compiled only for sm_90a"};

Verdict on(std::string_view list, ComputeCapability dev, bool force_ptx_jit = false) {
  const ImageSet images{single_target_images(built(list), kWgmma.target), {9, 0}, kWgmma};
  return predict(images, DeviceFacts{dev, {13000}, force_ptx_jit, false});
}

TEST(SingleTarget, TakesOnlyItsTargetFromTheList) {
  EXPECT_EQ(single_target_images(built("8.0+PTX;9.0a"), kWgmma.target),
            (std::vector<CodeTarget>{sass(90, Suffix::ArchSpecific)}));
  EXPECT_TRUE(single_target_images(built("8.0+PTX"), kWgmma.target).empty());
  EXPECT_TRUE(single_target_images(built("9.0+PTX"), kWgmma.target).size() == 1);  // a list's 9.0 builds it too
  EXPECT_EQ(single_target_images(built("7.5;8.0;8.6;9.0;10.0;12.0+PTX"), kWgmma.target),  // the default list
            (std::vector<CodeTarget>{sass(90, Suffix::ArchSpecific)}));
  EXPECT_TRUE(single_target_images(built("9.0a+PTX"), kWgmma.target).size() == 1);  // SASS only, not the PTX
  EXPECT_TRUE(single_target_images(built("10.0a;12.0+PTX"), kWgmma.target).empty());
}

TEST(SingleTarget, SassOnExactlyItsDevice) {
  const Verdict v = on("8.0+PTX;9.0a", cc(9, 0));
  EXPECT_EQ(v.status, ImageOutcome::Sass);
  EXPECT_EQ(v.label(), "sass sm_90a");
  EXPECT_EQ(on("9.0", cc(9, 0)).label(), "sass sm_90a");
}

TEST(SingleTarget, BuildWithoutTheTargetSaysSo) {
  for (const char* list : {"8.0+PTX", "8.6;10.0", "7.5;8.0;8.6;10.0;12.0+PTX"}) {
    const Verdict v = on(list, cc(9, 0));
    EXPECT_EQ(v.status, ImageOutcome::Missing) << list;
    EXPECT_EQ(v.cause, "this build has no sm_90a target: wgmma code is compiled only for sm_90a") << list;
    EXPECT_EQ(v.fix, "add 9.0 or 9.0a to the arch list (ARCHBENCH_ARCH_LIST or TORCH_CUDA_ARCH_LIST)") << list;
    EXPECT_EQ(expected_cuda_error(v.status), 209);
  }
}

TEST(SingleTarget, OtherDevicesAreUnsupported) {
  // No arch list would give sm_90a code an image on a 10.0 or 12.0 device: the operator is not
  // for that device (as one below its minimum), whatever the build holds.
  for (ComputeCapability dev : {cc(10, 0), cc(12, 0)}) {
    for (const char* list : {"8.0+PTX;9.0a", "8.0+PTX", "10.0;12.0"}) {
      const Verdict v = on(list, dev);
      EXPECT_EQ(v.status, ImageOutcome::Unsupported) << dev.str() << " " << list;
      EXPECT_EQ(v.cause, "unsupported on this device: sm_90a code runs only on 9.0 (wgmma code is compiled only for "
                         "sm_90a), device is " + dev.str());
      EXPECT_TRUE(v.fix.empty());
    }
  }
}

TEST(SingleTarget, OlderDevicesAreUnsupportedFirst) {
  EXPECT_EQ(on("8.0+PTX;9.0a", cc(8, 9)).status, ImageOutcome::Unsupported);
  EXPECT_EQ(on("8.0+PTX", cc(8, 0)).status, ImageOutcome::Unsupported);  // before "no sm_90a target"
}

TEST(SingleTarget, ForcedJitKeepsItsOwnFix) {
  const Verdict v = on("8.0+PTX;9.0a", cc(9, 0), true);
  EXPECT_EQ(v.status, ImageOutcome::Missing);
  EXPECT_NE(v.cause.find("CUDA_FORCE_PTX_JIT"), std::string::npos);
  EXPECT_NE(v.fix.find("unset CUDA_FORCE_PTX_JIT"), std::string::npos);
}

TEST(SingleTarget, RuntimeAgreesWhenTheDriverFindsNoImage) {
  const ImageSet images{single_target_images(built("8.0+PTX;9.0a"), kWgmma.target), {9, 0}, kWgmma};
  const Verdict p = predict(images, DeviceFacts{cc(10, 0), {13000}, false, false});
  const auto r = reconcile(p, RuntimeProbe{209, "cudaErrorNoKernelImageForDevice", 0, 0}, images);
  EXPECT_TRUE(r.agrees);
  EXPECT_EQ(r.verdict.status, ImageOutcome::Unsupported);
}

}  // namespace single_target

}  // namespace
}  // namespace archbench::arch
