// The cuDNN conv twins run on the engine the backend API pinned, not on the legacy fallback:
// on a device where cuDNN's graph API serves these convolutions (every CC >= 7.5 with cuDNN 9),
// a fallback means a bug in the backend path, which the operators' own tests would not see (the
// fallback computes the right answer). GPU only; skipped without one, saying why.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/device/environment.hpp"
#include "harness/ops/registry.hpp"

namespace archbench {
namespace {

std::vector<const Operator*> conv_twins() {
  std::vector<const Operator*> out;
  for (const auto& op : registry().all()) {
    if (op->spec().family == "conv" && op->spec().name.rfind("conv_cudnn", 0) == 0) out.push_back(op.get());
  }
  return out;
}

TEST(ConvCudnnGraphGpu, EveryTwinRunsOnAPinnedBackendEngine) {
  static const Environment env = probe_environment();
  if (!env.usable()) GTEST_SKIP() << "no usable CUDA device: " << env.device_count_error_text;
  const auto twins = conv_twins();
  ASSERT_FALSE(twins.empty());
  for (const Operator* op : twins) {
    for (const ProblemScale scale : {ProblemScale::Check, ProblemScale::Bench}) {
      const std::string what = op->id() + (scale == ProblemScale::Check ? " (check shape)" : " (benchmark shape)");
      const std::string impl = op->make_problem(scale, 1)->implementation();
      EXPECT_EQ(impl.rfind("cuDNN graph:", 0), 0u) << what << ": " << impl;
      // f32 keeps fp32 FMA math, as the legacy twin's CUDNN_FMA_MATH did.
      if (op->spec().dtype == DType::F32) {
        EXPECT_EQ(impl.find("TENSOR_CORE"), std::string::npos) << what << ": " << impl;
      }
      EXPECT_EQ(impl.find("unreadable"), std::string::npos) << what << ": " << impl;
      RecordProperty(op->id() + (scale == ProblemScale::Check ? ".check" : ".bench"), impl);
    }
  }
}

}  // namespace
}  // namespace archbench
