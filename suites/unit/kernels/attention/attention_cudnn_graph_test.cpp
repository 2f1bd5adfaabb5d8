// The cuDNN SDPA twin's graphs, built and finalized through the cuDNN backend API. Tensors,
// operations and the operation graph need neither a GPU nor a handle, so every attribute type,
// dimension and stride the twin sets is checked here by cuDNN itself; engine heuristics and
// execution plans need the device and run only on a GPU (suites/ops).
#include <gtest/gtest.h>

#include <stdexcept>

#include "kernels/attention/attention_operators.hpp"
#include "kernels/attention/sdpa_cudnn.hpp"

namespace archbench::kernels::attention {
namespace {

TEST(AttentionCudnnGraph, CompositeGraphBuildsAtEveryShapeAndCheckShape) {
  for (const auto& s : attention_shapes()) {
    for (const AttentionDims& dims : {s.dims, s.dims.check_dims()}) {
      for (DType d : {DType::F16, DType::BF16}) {
        // matmul, scale, max, sub, exp, sum, log, add (stats), div, matmul
        EXPECT_EQ(build_sdpa_graph_without_device(dims, d, SdpaGraph::Composite), 10u) << dims.str();
      }
    }
  }
}

TEST(AttentionCudnnGraph, UnifiedOperationBuildsAtEveryShape) {
  for (const auto& s : attention_shapes()) {
    for (DType d : {DType::F16, DType::BF16}) {
      EXPECT_EQ(build_sdpa_graph_without_device(s.dims, d, SdpaGraph::Unified), 1u) << s.dims.str();
    }
  }
}

TEST(AttentionCudnnGraph, OnlyHalfTypes) {
  const AttentionDims dims{1, 1, 64, 64, 64};
  EXPECT_THROW((void)build_sdpa_graph_without_device(dims, DType::F32, SdpaGraph::Composite), std::invalid_argument);
  EXPECT_THROW((void)make_sdpa_cudnn_launch(dims, DType::TF32), std::invalid_argument);
}

}  // namespace
}  // namespace archbench::kernels::attention
