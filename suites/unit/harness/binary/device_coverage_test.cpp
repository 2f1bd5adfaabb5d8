// The one rule inspect, scan and the doctor share (harness/binary/device_coverage): whole-list
// binaries against libraries that dispatch per architecture, on fatbin entries made up here.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "harness/binary/device_coverage.hpp"

namespace archbench::binary {
namespace {

using arch::CodeTarget;
using arch::ImageKind;
using arch::Suffix;

FatbinEntry entry(int container, int arch, ImageKind kind = ImageKind::Sass, Suffix suffix = Suffix::None) {
  FatbinEntry e;
  e.is_image = true;
  e.container = container;
  e.target = CodeTarget{kind, arch, suffix, arch, kind == ImageKind::Ptx ? arch::PtxIsa{9, 0} : arch::PtxIsa{}};
  return e;
}

arch::DeviceFacts device(int major, int minor, int driver = 13000) { return {{major, minor}, {driver}}; }

// Ten containers all built for sm_80 and sm_90: what nvcc gives every unit of one build.
std::vector<FatbinEntry> whole_list(int containers = 10) {
  std::vector<FatbinEntry> out;
  for (int c = 0; c < containers; ++c) {
    out.push_back(entry(c, 80));
    out.push_back(entry(c, 90));
  }
  return out;
}

TEST(BinaryKind, NvidiaLibrariesDispatchByName) {
  EXPECT_EQ(classify_binary("libcublasLt.so.13.1.0.3", whole_list()).kind, BinaryKind::Dispatching);
  EXPECT_EQ(classify_binary("libcudnn_engines_precompiled.so.9", whole_list()).kind, BinaryKind::Dispatching);
  EXPECT_EQ(classify_binary("cublas64_12.dll", whole_list()).kind, BinaryKind::Dispatching);
  EXPECT_EQ(classify_binary("libnccl.so.2", whole_list()).kind, BinaryKind::Dispatching);
}

TEST(BinaryKind, ByContentOneTargetSetIsWholeList) {
  const auto g = classify_binary("libtorch_cuda.so", whole_list());
  EXPECT_EQ(g.kind, BinaryKind::WholeList);
  ASSERT_EQ(g.targets.size(), 2u);
  EXPECT_EQ(g.targets[0].arch, 80);
}

TEST(BinaryKind, ByContentOneArchPerUnitDispatches) {
  std::vector<FatbinEntry> e{entry(0, 75), entry(1, 80), entry(2, 90), entry(3, 100)};
  EXPECT_EQ(classify_binary("libmylib.so", e).kind, BinaryKind::Dispatching);
}

TEST(ImageOutcome, WholeListNeedsEveryUnit) {
  auto e = whole_list();
  EXPECT_EQ(judge(BinaryKind::WholeList, tally_containers(e, device(9, 0))), ImageOutcome::Sass);
  EXPECT_EQ(judge(BinaryKind::WholeList, tally_containers(e, device(8, 6))), ImageOutcome::Sass);
  EXPECT_EQ(judge(BinaryKind::WholeList, tally_containers(e, device(12, 0))), ImageOutcome::Missing);
  e.push_back(entry(10, 90));  // one unit built for 9.0 only
  EXPECT_EQ(judge(BinaryKind::WholeList, tally_containers(e, device(8, 6))), ImageOutcome::Partial);
}

TEST(ImageOutcome, ADispatchingLibraryIsServedByAnyUnit) {
  const std::vector<FatbinEntry> e{entry(0, 75), entry(1, 80), entry(2, 90)};
  EXPECT_EQ(judge(BinaryKind::Dispatching, tally_containers(e, device(8, 9))), ImageOutcome::Sass);
  EXPECT_EQ(judge(BinaryKind::WholeList, tally_containers(e, device(8, 9))), ImageOutcome::Partial);
  EXPECT_EQ(judge(BinaryKind::Dispatching, tally_containers(e, device(7, 0))), ImageOutcome::Missing);
}

TEST(ImageOutcome, PtxServesNewerDevicesUntilTheDriverIsTooOld) {
  const std::vector<FatbinEntry> e{entry(0, 80, ImageKind::Ptx)};
  EXPECT_EQ(judge(BinaryKind::WholeList, tally_containers(e, device(9, 0, 13000))), ImageOutcome::PtxJit);
  const auto t = tally_containers(e, device(9, 0, 12080));  // ISA 9.0 needs a CUDA 13.0 driver
  EXPECT_EQ(judge(BinaryKind::WholeList, t), ImageOutcome::NeedsNewerDriver);
  ASSERT_TRUE(t.driver_needed.has_value());
  EXPECT_EQ(t.driver_needed->cuda.major(), 13);
}

TEST(ImageOutcome, ArchSpecificUnitsForOtherDevicesAreNoGap) {
  auto e = whole_list();
  e.push_back(entry(10, 90, ImageKind::Sass, Suffix::ArchSpecific));  // a wgmma-only unit
  const auto t = tally_containers(e, device(8, 6));
  EXPECT_EQ(t.arch_specific_elsewhere, 1u);
  EXPECT_EQ(judge(BinaryKind::WholeList, t), ImageOutcome::Sass);
  EXPECT_EQ(judge(BinaryKind::WholeList, tally_containers({entry(0, 90, ImageKind::Sass, Suffix::ArchSpecific)}, device(12, 0))),
            ImageOutcome::Missing);
}

TEST(ImageOutcome, NothingToJudge) {
  EXPECT_EQ(judge(BinaryKind::WholeList, tally_containers({}, device(9, 0))), ImageOutcome::NoDeviceCode);
  EXPECT_FALSE(runs(ImageOutcome::NoDeviceCode));
  EXPECT_TRUE(runs(ImageOutcome::PtxJit));
  EXPECT_GT(severity(ImageOutcome::Missing), severity(ImageOutcome::Partial));
}

// The toolkit's own libraries, read for real (headers only, no decompression): the case that
// made inspect tell an RTX 4090 user to rebuild cuBLAS.
TEST(CoverageOfTheToolkit, CublasLtServesAnRtx4090AndNotAVolta) {
  const std::string path = "/usr/local/cuda/lib64/libcublasLt.so.13";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not installed";
  const auto file = BinaryFile::open(path);
  const auto kind = classify_binary("libcublasLt.so.13", file.entries());
  EXPECT_EQ(kind.kind, BinaryKind::Dispatching);
  EXPECT_EQ(judge(kind.kind, tally_containers(file.entries(), device(8, 9))), ImageOutcome::Sass);
  EXPECT_EQ(judge(kind.kind, tally_containers(file.entries(), device(9, 0))), ImageOutcome::Sass);
  EXPECT_EQ(judge(kind.kind, tally_containers(file.entries(), device(7, 0))), ImageOutcome::Missing);
  // As a whole-list binary the same file would be judged partial on 8.9: what inspect used to say.
  EXPECT_EQ(judge(BinaryKind::WholeList, tally_containers(file.entries(), device(8, 9))), ImageOutcome::Partial);
}

TEST(CoverageOfTheToolkit, CudnnEnginesServeAnH200) {
  for (const std::string dir : {"/usr/local/cuda/lib64", "/usr/lib/x86_64-linux-gnu"}) {
    const std::string path = dir + "/libcudnn_engines_precompiled.so.9";
    if (!std::filesystem::exists(path)) continue;
    const auto file = BinaryFile::open(path);
    const auto kind = classify_binary("libcudnn_engines_precompiled.so.9", file.entries());
    EXPECT_EQ(kind.kind, BinaryKind::Dispatching);
    EXPECT_EQ(judge(kind.kind, tally_containers(file.entries(), device(9, 0))), ImageOutcome::Sass);
    return;
  }
  GTEST_SKIP() << "cuDNN's engines library is not installed";
}

}  // namespace
}  // namespace archbench::binary
