// The inspector on archbench's own executable: every own kernel (several with internal linkage,
// which cubins mark STB_LOCAL) is found with exactly the images the build manifest lists. This
// is the static half of the cross-check `archbench run` makes against the driver. A single-target
// kernel (registered with KernelRef::only, e.g. the wgmma GEMM) has the list's one target instead.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "harness/binary/binary_file.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/ops/registry.hpp"

namespace archbench {
namespace {

TEST(OwnBinary, EveryOwnKernelHasTheManifestsImages) {
  const auto file = binary::BinaryFile::open(ARCHBENCH_TEST_EXE);
  const auto kernels = file.kernels();
  std::set<std::string> manifest;
  for (const auto& t : build_manifest().targets) manifest.insert(t.name());
  std::set<const void*> single_target_stubs;
  std::set<std::string> single_target_images;  // what the build gives such kernels (arch::single_target_images)
  for (const auto& op : registry().all()) {
    for (const auto& ref : op->kernels()) {
      if (!ref.only || ref.host_stub == nullptr) continue;
      single_target_stubs.insert(ref.host_stub);
      for (const auto& t : arch::single_target_images(build_manifest().targets, ref.only->target)) {
        single_target_images.insert(t.name());
      }
    }
  }
  int own = 0;
  size_t single = 0;
  for (const auto& k : kernels) {
    if (k.demangled.find("archbench::") == std::string::npos) continue;
    ++own;
    std::set<std::string> images;
    for (const auto& t : k.images) images.insert(t.name());
    if (images.size() == 1 && images != manifest && single_target_images.contains(*images.begin())) {
      ++single;  // its one arch-specific target
      continue;
    }
    EXPECT_EQ(images, manifest) << k.demangled;
  }
  // A build whose list is that one target (TORCH_CUDA_ARCH_LIST=9.0a) gives every kernel the same image:
  // its single-target kernels cannot be told apart from the rest, and each has matched the manifest above.
  const bool one_target_build = manifest.size() == 1 && single_target_images.contains(*manifest.begin());
  if (!one_target_build) {
    EXPECT_EQ(single, single_target_stubs.size()) << "kernels with one `a` image vs single-target kernels registered";
  }
  EXPECT_GE(own, 3) << "gemm_simt_f32, gemm_tc<__half>, gemm_tc<__nv_bfloat16> at least";
  EXPECT_TRUE(std::ranges::any_of(kernels, [](const auto& k) { return k.demangled.find("gemm_tc<__half>") != std::string::npos; }));
}

}  // namespace
}  // namespace archbench
