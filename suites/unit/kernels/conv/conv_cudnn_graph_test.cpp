// The cuDNN convolution twins (cudnn-frontend's descriptor builders over cuDNN's backend API), as
// far as a machine without a GPU can check them: the engine choice (a pure function of the
// heuristics' list), the tensors' dims and strides against the layouts the reference uses, and the
// descriptors themselves - tensors, convolution descriptor and forward operation are finalized by
// cuDNN here, without a handle, for every registered twin, so that a wrong attribute fails here and
// not on the GPU. The operation graph, heuristics, plans and execution need the device (suites/ops
// runs them).
#include <gtest/gtest.h>

#include <cudnn.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "harness/ops/registry.hpp"
#include "harness/vendor/cublas_check.hpp"
#include "kernels/conv/conv_cudnn_graph.hpp"
#include "kernels/conv/conv_engine_choice.hpp"

namespace archbench::kernels::conv {
namespace {

constexpr int64_t kCap = int64_t{512} << 20;

// A fake heuristics list: each candidate's notes and what finalizing it gives, and a record of
// which candidates were finalized, in order.
struct FakeEngines {
  std::vector<EngineCandidate> candidates;
  std::vector<PlanOutcome> outcomes;
  std::vector<size_t> finalized;

  void add(int64_t engine, std::vector<cudnnBackendNumericalNote_t> numerical,
           std::vector<cudnnBackendBehaviorNote_t> behavior = {}, PlanOutcome outcome = {true, 0, ""}) {
    candidates.push_back({engine, std::move(numerical), std::move(behavior)});
    outcomes.push_back(std::move(outcome));
  }
  EngineChoice choose(DType math, int64_t cap = kCap) {
    finalized.clear();
    return choose_engine(candidates, math, cap, [this](size_t i) {
      finalized.push_back(i);
      return outcomes.at(i);
    });
  }
};

const PlanOutcome kRefused{false, 0, "CUDNN_STATUS_NOT_SUPPORTED"};

TEST(ConvEngineChoice, FirstQualifyingInHeuristicOrderAndNothingAfterIt) {
  FakeEngines f;
  f.add(17, {CUDNN_NUMERICAL_NOTE_TENSOR_CORE});
  f.add(3, {});
  for (DType d : {DType::F16, DType::BF16}) {
    const EngineChoice c = f.choose(d);
    ASSERT_TRUE(c.chosen.has_value());
    EXPECT_EQ(*c.chosen, 0u);
    EXPECT_EQ(f.finalized, std::vector<size_t>{0});
  }
  // f16/bf16 take a non-tensor-core engine as readily, when it ranks first.
  FakeEngines g;
  g.add(3, {});
  g.add(17, {CUDNN_NUMERICAL_NOTE_TENSOR_CORE});
  EXPECT_EQ(g.choose(DType::F16).chosen, std::optional<size_t>(0));
}

TEST(ConvEngineChoice, RuntimeCompiledEnginesAreNeverFinalized) {
  FakeEngines f;
  f.add(40, {CUDNN_NUMERICAL_NOTE_TENSOR_CORE}, {CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION});
  f.add(41, {CUDNN_NUMERICAL_NOTE_TENSOR_CORE}, {CUDNN_BEHAVIOR_NOTE_SUPPORTS_CUDA_GRAPH_NATIVE_API});
  const EngineChoice c = f.choose(DType::F16);
  EXPECT_EQ(c.chosen, std::optional<size_t>(1));
  EXPECT_EQ(f.finalized, std::vector<size_t>{1});
}

TEST(ConvEngineChoice, RefusedPlansAndWorkspaceOverTheCapAreSkipped) {
  FakeEngines f;
  f.add(1, {}, {}, kRefused);
  f.add(2, {}, {}, {true, kCap + 1, ""});
  f.add(3, {}, {}, {true, kCap, ""});  // exactly the cap fits
  const EngineChoice c = f.choose(DType::F32);
  EXPECT_EQ(c.chosen, std::optional<size_t>(2));
  EXPECT_EQ(f.finalized, (std::vector<size_t>{0, 1, 2}));
}

TEST(ConvEngineChoice, StrictF32NeverTakesATensorCoreEngine) {
  FakeEngines f;
  f.add(10, {CUDNN_NUMERICAL_NOTE_TENSOR_CORE});
  f.add(11, {CUDNN_NUMERICAL_NOTE_WINOGRAD});  // FMA; Winograd was allowed by the legacy twin too
  const EngineChoice c = f.choose(DType::F32);
  EXPECT_EQ(c.chosen, std::optional<size_t>(1));
  EXPECT_EQ(f.finalized, std::vector<size_t>{1});
  EXPECT_EQ(notes_verdict(f.candidates[0], DType::F32), "tensor core (f32 is FMA only)");
  EXPECT_EQ(notes_verdict(f.candidates[0], DType::TF32), "");
}

TEST(ConvEngineChoice, Tf32PrefersATensorCoreEngineAndFallsBackToFma) {
  FakeEngines f;
  f.add(20, {});
  f.add(21, {CUDNN_NUMERICAL_NOTE_TENSOR_CORE});
  EXPECT_EQ(f.choose(DType::TF32).chosen, std::optional<size_t>(1));
  EXPECT_EQ(f.finalized, std::vector<size_t>{1});  // the FMA engine ranked first is not even tried

  // No tensor-core engine finalizes: the FMA one, each candidate finalized once.
  f.outcomes[1] = kRefused;
  EXPECT_EQ(f.choose(DType::TF32).chosen, std::optional<size_t>(0));
  EXPECT_EQ(f.finalized, (std::vector<size_t>{1, 0}));
}

TEST(ConvEngineChoice, NarrowerInputsOrReductionsContradictEveryDeclaredMath) {
  for (DType d : {DType::F32, DType::TF32, DType::F16, DType::BF16}) {
    FakeEngines f;
    f.add(30, {CUDNN_NUMERICAL_NOTE_TENSOR_CORE, CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS});
    f.add(31, {CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION});
    const EngineChoice c = f.choose(d);
    EXPECT_FALSE(c.chosen.has_value()) << dtype_name(d);
    EXPECT_TRUE(f.finalized.empty()) << dtype_name(d);
    EXPECT_EQ(c.reason, "#0 engine 30: down-converts its inputs; #1 engine 31: reduces in less than fp32")
        << dtype_name(d);
  }
}

TEST(ConvEngineChoice, NoneQualifiesSaysWhyForEachCandidate) {
  FakeEngines f;
  f.add(5, {}, {CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION});
  f.add(6, {CUDNN_NUMERICAL_NOTE_TENSOR_CORE});
  f.add(7, {}, {}, kRefused);
  f.add(8, {}, {}, {true, 2 * kCap, ""});
  const EngineChoice c = f.choose(DType::F32);
  EXPECT_FALSE(c.chosen.has_value());
  EXPECT_EQ(c.reason, "#0 engine 5: runtime compilation; #1 engine 6: tensor core (f32 is FMA only); "
                      "#2 engine 7: plan refused (CUDNN_STATUS_NOT_SUPPORTED); #3 engine 8: workspace 1073741824 B "
                      "over the 536870912 B cap");

  FakeEngines empty;
  const EngineChoice e = empty.choose(DType::F16);
  EXPECT_FALSE(e.chosen.has_value());
  EXPECT_EQ(e.reason, "no engine config");
}

// The strides put every element where the layout (and so the float64 reference) has it.
TEST(ConvCudnnGraph, StridesMatchTheLayoutsOffsets) {
  const ConvDims d{2, 7, 5, 3, 4, 3, 2, 2, 1};  // N H W C K R S stride pad, every extent distinct
  ASSERT_TRUE(d.valid());
  std::mt19937 rng(7);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  auto at = [](const std::array<int64_t, 4>& strides, int a, int b, int c, int e) {
    return static_cast<size_t>(a * strides[0] + b * strides[1] + c * strides[2] + e * strides[3]);
  };
  for (ConvLayout l : {ConvLayout::NHWC, ConvLayout::NCHW}) {
    const ConvGraphTensors t = conv_graph_tensors(d, l);
    EXPECT_EQ(t.x_dims, (std::array<int64_t, 4>{2, 3, 7, 5}));
    EXPECT_EQ(t.w_dims, (std::array<int64_t, 4>{4, 3, 3, 2}));
    EXPECT_EQ(t.y_dims, (std::array<int64_t, 4>{2, 4, d.P(), d.Q()}));
    for (int i = 0; i < 200; ++i) {
      const int n = pick(d.N), h = pick(d.H), w = pick(d.W), c = pick(d.C);
      EXPECT_EQ(at(t.x_strides, n, c, h, w), activation_offset(l, n, h, w, c, d.H, d.W, d.C)) << layout_name(l);
      const int k = pick(d.K), r = pick(d.R), s = pick(d.S);
      EXPECT_EQ(at(t.w_strides, k, c, r, s), filter_offset(l, k, r, s, c, d.R, d.S, d.C)) << layout_name(l);
      const int p = pick(d.P()), q = pick(d.Q());
      EXPECT_EQ(at(t.y_strides, n, k, p, q), activation_offset(l, n, p, q, k, d.P(), d.Q(), d.K)) << layout_name(l);
    }
  }
}

// docs/reference/workload.md, "The operator set", the conv row ({N, H, W, C, K, R, S, stride, pad}); every
// registered twin's shape must be one of them (checked below), so this list cannot drift from the registry.
const std::vector<ConvDims> kShapes{
    {2, 64, 64, 320, 320, 3, 3, 1, 1},   {2, 16, 16, 1280, 1280, 3, 3, 1, 1}, {2, 8, 8, 1280, 1280, 3, 3, 1, 1},
    {2, 16, 16, 2560, 1280, 3, 3, 1, 1}, {2, 64, 64, 320, 320, 3, 3, 2, 1},   {2, 32, 32, 960, 640, 1, 1, 1, 0},
    {2, 64, 64, 4, 320, 3, 3, 1, 1},     {2, 128, 128, 320, 320, 3, 3, 1, 1},
};

TEST(ConvCudnnGraph, EveryRegisteredTwinsGraphFinalizesAtItsBenchAndCheckShape) {
  size_t twins = 0;
  for (const auto& op : registry().all()) {
    const OperatorSpec& spec = op->spec();
    if (spec.family != "conv" || (spec.name != "conv_cudnn_nhwc" && spec.name != "conv_cudnn_nchw")) continue;
    ++twins;
    const ConvLayout layout = spec.name == "conv_cudnn_nhwc" ? ConvLayout::NHWC : ConvLayout::NCHW;
    const ConvDims* bench = nullptr;
    for (const ConvDims& d : kShapes)
      if (d.str() == spec.shape) bench = &d;
    ASSERT_NE(bench, nullptr) << op->id() << ": shape not in this test's list";
    for (const ConvDims& d : {*bench, bench->check_dims()}) {
      try {
        EXPECT_EQ(build_conv_operation_without_device(d, layout, spec.dtype), 1u) << op->id() << " at " << d.str();
      } catch (const LibraryError& e) {
        ADD_FAILURE() << op->id() << " at " << d.str() << ": " << e.what();
      }
    }
  }
  EXPECT_EQ(twins, 40u);  // 8 shapes x {f16, bf16} NHWC + 4 rows x {f32, tf32} NHWC + 4 rows x 4 dtypes NCHW
}

// cuDNN validates the descriptors, so a broken one fails here with the step that failed.
TEST(ConvCudnnGraph, AnInvalidConvolutionFailsWithTheStep) {
  const ConvDims d{2, 4, 4, 16, 16, 3, 3, 1, -2};  // a negative padding, and a -2 x -2 output
  ASSERT_FALSE(d.valid());
  try {
    (void)build_conv_operation_without_device(d, ConvLayout::NHWC, DType::F16);
    FAIL() << "a negative padding finalized";
  } catch (const LibraryError& e) {
    EXPECT_EQ(e.library(), "cuDNN");
    EXPECT_NE(std::string(e.what()).find("cuDNN conv graph"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace archbench::kernels::conv
