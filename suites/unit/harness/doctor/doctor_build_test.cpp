// The doctor's build layer on plain data: kernel image lists judged per device for archbench's own
// kernels, a per-arch dispatching library and a --check file; the declared arch list; and the
// binaries of this very test process read by the inspector's reader (no GPU needed).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/arch/arch_list.hpp"
#include "harness/doctor/build_layer.hpp"
#include "harness/doctor/runtime_layer.hpp"
#include "harness/vendor/cuda_libraries.hpp"
#include "suites/unit/toolkit_fixture.hpp"

namespace archbench::doctor {
namespace {

namespace fs = std::filesystem;
using arch::CodeTarget;
using arch::ImageKind;
using arch::Suffix;

CodeTarget sass(int a, Suffix s = Suffix::None) { return {ImageKind::Sass, a, s, a, {}}; }
CodeTarget ptx(int a, arch::PtxIsa isa = {9, 0}) { return {ImageKind::Ptx, a, Suffix::None, a, isa}; }

binary::KernelImages kernel(const std::string& name, std::vector<CodeTarget> images) {
  return {name, name, std::move(images)};
}

arch::DeviceFacts h200(bool jit_disabled = false) { return {{9, 0}, {13000}, false, jit_disabled}; }

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// One device, `name` of compute capability cc, on a CUDA 13.0 driver and runtime.
Environment one_device(const std::string& name, arch::ComputeCapability cc) {
  Environment env;
  env.driver = {13000};
  env.runtime = {13000};
  DeviceInfo d;
  d.name = name;
  d.cc = cc;
  env.devices = {d};
  return env;
}

// A build of `arch_list` that holds SASS for `arch` only.
BuildManifest sass_build(const std::string& arch_list, int arch) {
  BuildManifest m;
  m.arch_list = arch_list;
  m.targets = {sass(arch)};
  return m;
}

TEST(DoctorBuild, OwnKernelsWithAFamilyGap) {
  const std::vector<binary::KernelImages> all_arch{kernel("gemm", {sass(80), sass(90)}),
                                                   kernel("silu", {sass(80), sass(90)})};
  Finding ok = judge_binary("archbench's own kernels", BinaryRole::OwnExecutable, tally_kernels(all_arch, h200()),
                            h200(), "device 0");
  EXPECT_EQ(ok.outcome, Outcome::Pass);
  EXPECT_TRUE(contains(ok.summary, "every kernel has SASS")) << ok.summary;

  // One family built without sm_90: the per-family (per-dtype) gap of the field guides.
  const std::vector<binary::KernelImages> gap{kernel("gemm", {sass(80), sass(90)}), kernel("silu_f16", {sass(80)})};
  Finding bad = judge_binary("archbench's own kernels", BinaryRole::OwnExecutable, tally_kernels(gap, h200()), h200(),
                             "device 0");
  EXPECT_EQ(bad.outcome, Outcome::Fail);
  EXPECT_TRUE(contains(bad.summary, "1 without a usable image")) << bad.summary;
  EXPECT_TRUE(contains(bad.fix, "add 9.0 to ARCHBENCH_ARCH_LIST")) << bad.fix;
  EXPECT_EQ(bad.field_causes, (FieldCauses{FieldCause::ArchOnlyOnSomePaths, FieldCause::HardcodedGencodeList}));
  bool named = false;
  for (const auto& d : bad.details) named |= contains(d, "silu_f16");
  EXPECT_TRUE(named);

  // PTX only: runs, through the JIT.
  const std::vector<binary::KernelImages> jit{kernel("gemm", {sass(80), ptx(80)})};
  Finding w = judge_binary("archbench's own kernels", BinaryRole::OwnExecutable, tally_kernels(jit, h200()), h200(),
                           "device 0");
  EXPECT_EQ(w.outcome, Outcome::Warn);
  EXPECT_EQ(w.field_causes, (FieldCauses{FieldCause::PtxJitReliance}));
  // ... and not at all with the JIT disabled.
  Finding off = judge_binary("archbench's own kernels", BinaryRole::OwnExecutable, tally_kernels(jit, h200(true)),
                             h200(true), "device 0");
  EXPECT_EQ(off.outcome, Outcome::Fail);
  EXPECT_TRUE(contains(off.cause, "223")) << off.cause;
}

TEST(DoctorBuild, DispatchingLibraryNeedsSassForThisArchOnly) {
  std::vector<binary::KernelImages> lib;
  for (int i = 0; i < 10; ++i) lib.push_back(kernel("sm100_kernel_" + std::to_string(i), {sass(100)}));
  lib.push_back(kernel("sm90_kernel", {sass(90)}));
  Finding ok =
      judge_binary("libcublasLt.so.13", BinaryRole::DispatchingLibrary, tally_kernels(lib, h200()), h200(), "device 0");
  EXPECT_EQ(ok.outcome, Outcome::Pass) << ok.summary;
  EXPECT_TRUE(contains(ok.summary, "1 of 11 kernels have SASS for 9.0")) << ok.summary;

  lib.pop_back();
  Finding none =
      judge_binary("libcublasLt.so.13", BinaryRole::DispatchingLibrary, tally_kernels(lib, h200()), h200(), "device 0");
  EXPECT_EQ(none.outcome, Outcome::Fail);
  EXPECT_TRUE(contains(none.fix, "supports CC 9.0")) << none.fix;
  EXPECT_EQ(none.field_causes, (FieldCauses{FieldCause::NoSassForMajor, FieldCause::ArchDroppedByToolkit}));

  const std::vector<binary::KernelImages> ptx_only{kernel("k", {ptx(80)})};
  Finding jit = judge_binary("libcudnn_engines_precompiled.so.9", BinaryRole::DispatchingLibrary,
                             tally_kernels(ptx_only, h200()), h200(), "device 0");
  EXPECT_EQ(jit.outcome, Outcome::Warn);
}

TEST(DoctorBuild, CheckedFileWithPtxNewerThanTheDriver) {
  // An extension built by CUDA 13.2 as PTX only, on a CUDA 13.0 driver: 222 at load.
  const std::vector<binary::KernelImages> ext{kernel("ext_kernel", {ptx(90, {9, 2})})};
  Finding f = judge_binary("my_ext.so", BinaryRole::CheckedFile, tally_kernels(ext, h200()), h200(), "device 0");
  EXPECT_EQ(f.outcome, Outcome::Fail);
  EXPECT_TRUE(contains(f.cause, "222")) << f.cause;
  EXPECT_TRUE(contains(f.fix, "r595")) << f.fix;
  EXPECT_FALSE(contains(f.fix, "ARCHBENCH_ARCH_LIST")) << "another binary's fix speaks of its own build: " << f.fix;
  EXPECT_EQ(f.field_causes, (FieldCauses{FieldCause::PtxNewerThanDriver}));

  // Some kernels without an image: fatal only if launched.
  const std::vector<binary::KernelImages> partial{kernel("a", {sass(90)}), kernel("b", {sass(80)})};
  Finding w = judge_binary("my_ext.so", BinaryRole::CheckedFile, tally_kernels(partial, h200()), h200(), "device 0");
  EXPECT_EQ(w.outcome, Outcome::Warn);
  EXPECT_TRUE(contains(w.fix, "TORCH_CUDA_ARCH_LIST")) << w.fix;
}

TEST(DoctorBuild, DeclaredTargets) {
  BuildManifest m;
  m.arch_list = "8.0";
  m.targets = {sass(80)};
  Finding missing = judge_build_targets(m, h200(), "device 0");
  EXPECT_EQ(missing.outcome, Outcome::Fail);
  EXPECT_TRUE(contains(missing.fix, "add 9.0 to ARCHBENCH_ARCH_LIST")) << missing.fix;
  m.targets = {sass(80), ptx(80)};
  EXPECT_EQ(judge_build_targets(m, h200(), "device 0").outcome, Outcome::Warn);
  m.targets = {sass(80), sass(90)};
  EXPECT_EQ(judge_build_targets(m, h200(), "device 0").outcome, Outcome::Pass);
  m.targets = {ptx(90, {9, 0})};
  const arch::DeviceFacts old_driver{{9, 0}, {12080}, false, false};
  Finding too_new = judge_build_targets(m, old_driver, "device 0");
  EXPECT_EQ(too_new.outcome, Outcome::Fail);
  EXPECT_EQ(too_new.field_causes, (FieldCauses{FieldCause::PtxNewerThanDriver}));
}

// `a` and `f` lists (docs/arch-lists-and-verdicts.md, "`a` and `f` targets"): a family build passes on its
// families; an `a` build on the rest of its family is the arch-specific-cubin cause, not a missing arch.
TEST(DoctorBuild, DeclaredSuffixedTargets) {
  auto build = [](const std::string& list) {
    BuildManifest m;
    m.arch_list = list;
    m.targets = arch::parse_arch_list(list, test::nvcc_13_0()).targets;
    return m;
  };
  auto on = [](arch::ComputeCapability cc) { return arch::DeviceFacts{cc, {13000}, false, false}; };

  const BuildManifest family = build("10.0f 12.0f");
  const Finding b300 = judge_build_targets(family, on({10, 3}), "device 0");
  EXPECT_EQ(b300.outcome, Outcome::Pass);
  EXPECT_TRUE(contains(b300.summary, "the build has sass sm_100f")) << b300.summary;
  EXPECT_EQ(judge_build_targets(family, on({12, 1}), "device 0").outcome, Outcome::Pass);
  const Finding thor = judge_build_targets(family, on({11, 0}), "device 0");
  EXPECT_EQ(thor.outcome, Outcome::Fail);
  EXPECT_TRUE(contains(thor.cause, "sm_100f runs only on its family (10.0, 10.3)")) << thor.cause;
  EXPECT_EQ(thor.field_causes, (FieldCauses{FieldCause::NoSassForMajor, FieldCause::ArchDroppedByToolkit}));

  // vllm-project/vllm #56548: sm_100a alone, on a B300.
  const Finding a_only = judge_build_targets(build("9.0;10.0a"), on({10, 3}), "device 0");
  EXPECT_EQ(a_only.outcome, Outcome::Fail);
  EXPECT_TRUE(contains(a_only.summary, "arch-specific and exclude this device")) << a_only.summary;
  EXPECT_TRUE(contains(a_only.fix, "build 10.0f instead of 10.0a")) << a_only.fix;
  EXPECT_EQ(a_only.field_causes, (FieldCauses{FieldCause::ArchSpecificCubin}));
  // FlashAttention-3's sm_90a on an RTX 5090: no SASS of major 12 at all, plain or not.
  EXPECT_EQ(judge_build_targets(build("9.0a"), on({12, 0}), "device 0").field_causes,
            (FieldCauses{FieldCause::NoSassForMajor, FieldCause::ArchDroppedByToolkit}));
}

TEST(DoctorBuild, CudnnSubLibrariesBesideLibcudnn) {
  std::string tmpl = (fs::temp_directory_path() / "doctor_build.XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path dir = tmpl;
  for (const char* f : {"libcudnn.so.9", "libcudnn_ops.so.9", "libcudnn_engines_precompiled.so.9", "libcudnn_ops.so",
                        "libcublas.so.13", "libcudnn_ops.so.8"}) {
    std::ofstream(dir / f) << "x";
  }
  const auto files = library_files_to_judge(
      {(dir / "libcudnn.so.9").string(), (dir / "libcublas.so.13").string(), "/usr/lib/libc.so.6"});
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(fs::path(f).filename().string());
  EXPECT_EQ(names, (std::vector<std::string>{"libcudnn.so.9", "libcudnn_engines_precompiled.so.9", "libcudnn_ops.so.9",
                                             "libcublas.so.13"}));
  fs::remove_all(dir);
}

TEST(DoctorBuild, ReadsRealBinariesAndFlagsUnreadableOnes) {
  // A pretend device no binary has an image for (CC 3.0), and this test binary's own kernels.
  const Environment env = one_device("Kepler-class test device", {3, 0});
  const BuildManifest m = sass_build("8.0", 80);
  BuildInputs in;
  in.build = &m;
  in.env = &env;
  in.check_files = {ARCHBENCH_TEST_EXE, "/nonexistent/libfoo.so"};
  Checklist c;
  check_build(in, c);
  ASSERT_NE(c.find("build-targets"), nullptr);
  EXPECT_EQ(c.find("build-targets")->outcome, Outcome::Fail);
  const Finding* own = c.find("own-kernels");
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->outcome, Outcome::Fail);
  EXPECT_TRUE(contains(own->cause, "no kernel has a usable image")) << own->cause;
  const auto checked = c.all_of("check-file");
  ASSERT_EQ(checked.size(), 2u);
  EXPECT_TRUE(contains(checked[0]->summary, ARCHBENCH_TEST_EXE)) << checked[0]->summary;
  EXPECT_FALSE(checked[0]->bad_input);
  EXPECT_TRUE(checked[1]->bad_input);
  EXPECT_TRUE(contains(checked[1]->summary, "cannot read /nonexistent/libfoo.so")) << checked[1]->summary;
  EXPECT_EQ(diagnose(c), Diagnosis::BadInput);

  // Without a device: files are still read (bad input is still found), nothing is judged.
  Environment none;
  none.device_count_error = 35;
  in.env = &none;
  Checklist skipped;
  check_build(in, skipped);
  EXPECT_EQ(skipped.find("build-targets")->outcome, Outcome::Skip);
  const auto files = skipped.all_of("check-file");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0]->outcome, Outcome::Skip);
  EXPECT_TRUE(contains(files[0]->summary, "SASS")) << files[0]->summary;
  EXPECT_TRUE(files[1]->bad_input);
}

TEST(DoctorBuild, TheLoadedCublasAndCudnnHaveSassForAnH200) {
  // The cuBLAS and cuDNN this test process maps, judged as two libraries for a pretend H200 on a
  // CUDA 13.0 driver: each dispatches per arch, so kernels for other archs are no finding. They
  // open on first use, so open them first (as the doctor does).
  ASSERT_EQ(load_cuda_libraries(), "");
  std::ifstream maps_file("/proc/self/maps");
  std::stringstream maps;
  maps << maps_file.rdbuf();
  const auto libraries = library_files_to_judge(mapped_files(maps.str()));
  ASSERT_FALSE(libraries.empty());
  const Environment env = one_device("NVIDIA H200", {9, 0});
  const BuildManifest m = sass_build("9.0", 90);
  BuildInputs in;
  in.build = &m;
  in.env = &env;
  in.libraries = libraries;
  Checklist c;
  check_build(in, c);
  const auto libs = c.all_of("library-images");
  ASSERT_EQ(libs.size(), 2u);
  EXPECT_TRUE(contains(libs[0]->summary, "cuBLAS (libcublas")) << libs[0]->summary;
  EXPECT_TRUE(contains(libs[1]->summary, "cuDNN (libcudnn")) << libs[1]->summary;
  for (const auto* f : libs) EXPECT_EQ(f->outcome, Outcome::Pass) << f->summary << "\n" << f->cause;
}

}  // namespace
}  // namespace archbench::doctor
