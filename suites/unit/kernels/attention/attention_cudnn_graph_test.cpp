// The cuDNN SDPA twin's graphs are built by cudnn-frontend, whose validation already asks the
// device (its compute capability), so graphs and plans are checked on a GPU only (suites/ops:
// ops.attention.*, with the e4m3 and e5m2 twins). Here: the types it refuses before any cuDNN
// call, and the shapes the FP8 twins are registered at (cuDNN's FP8 attention takes head dims that
// are multiples of 16, up to 256, on Hopper).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "harness/ops/registry.hpp"
#include "kernels/attention/attention_operators.hpp"
#include "kernels/attention/sdpa_cudnn.hpp"

namespace archbench::kernels::attention {
namespace {

TEST(AttentionCudnnGraph, RefusesTypesWithoutAnSdpaGraph) {
  const AttentionDims dims{1, 1, 64, 64, 64};
  EXPECT_THROW((void)make_sdpa_cudnn_launch(dims, DType::F32), std::invalid_argument);
  EXPECT_THROW((void)make_sdpa_cudnn_launch(dims, DType::TF32), std::invalid_argument);
}

TEST(AttentionCudnnGraph, Fp8TwinsAtEveryShapeWithAHeadDimCudnnTakes) {
  for (const auto& s : attention_shapes()) {
    const bool takes = s.dims.D % 16 == 0 && s.dims.D <= 256;
    for (const char* format : {"e4m3", "e5m2"}) {
      const auto ops = registry().select("attention/sdpa_cudnn/" + std::string(format) + "/" + s.dims.str(), {});
      ASSERT_EQ(ops.size(), takes ? 1u : 0u) << format << " " << s.dims.str();
      if (takes) {
        EXPECT_EQ(ops[0]->spec().min_cc.major, 9) << format << " " << s.dims.str();
        EXPECT_EQ(ops[0]->spec().impl, Impl::CuDNN);
        EXPECT_TRUE(ops[0]->kernels().empty());  // cuDNN's images are its own business
      }
    }
  }
}

}  // namespace
}  // namespace archbench::kernels::attention
