// flash_wgmma (f16, e4m3, e5m2) at shapes the registry does not have: a single key, a key count that
// ends inside a 16-key block and inside a 128-key tile, one key tile only, a single query row, at
// every FP8 head dim. The registry's shapes have Nk >= 77 and (in FP8) >= 256, so the masking of
// a lone partial tile and the transposed-V padding of a short FP8 row run only here. Each against
// the float64 reference; GPU with compute capability 9.0 and an sm_90a build only, else skipped
// saying why.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <string>

#include "harness/device/environment.hpp"
#include "harness/util/cuda_check.hpp"
#include "kernels/attention/attention_operators.hpp"
#include "kernels/attention/flash_wgmma.hpp"

namespace archbench::kernels::attention {
namespace {

TEST(FlashWgmmaTailsGpu, OddKeyAndQueryCountsMatchTheReference) {
  static const Environment env = probe_environment();
  if (!env.usable()) GTEST_SKIP() << "no usable CUDA device: " << env.device_count_error_text;
  if (flash_attention_wgmma_kernel(DType::F16, 64) == nullptr) GTEST_SKIP() << "this build has no sm_90a target";
  const DeviceInfo& dev = env.devices.front();
  if (dev.cc != arch::ComputeCapability{9, 0}) GTEST_SKIP() << "sm_90a code runs on compute capability 9.0 only";
  // {B, H, Nq, Nk, d}: Nk = 1, 77 (a partial 16-key block), 130 (a second, nearly empty tile), 300.
  const AttentionDims shapes[] = {{1, 2, 1, 1, 64},    {1, 2, 77, 77, 64},   {2, 3, 130, 130, 128},
                                  {1, 2, 200, 17, 80}, {1, 1, 129, 300, 160}, {1, 2, 1, 300, 128}};
  for (const DType dtype : {DType::F16, DType::E4M3, DType::E5M2}) {
    for (const AttentionDims& dims : shapes) {
      const std::string what = std::string(dtype_name(dtype)) + " " + dims.str();
      AttentionProblem p(dims, dtype, flash_wgmma_launch, ProblemScale::Check, 7);
      p.poison_output();
      p.launch(nullptr);
      ARCHBENCH_CUDA_CHECK(cudaDeviceSynchronize());
      const CheckResult r = p.check();
      EXPECT_TRUE(r.passed) << what << ": relative error " << r.rel_error << " over " << r.tolerance;
      RecordProperty(what, std::to_string(r.rel_error));
    }
  }
}

}  // namespace
}  // namespace archbench::kernels::attention
