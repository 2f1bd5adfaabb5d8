// The cuDNN convolution twins on cuDNN's backend API, as far as a machine without a GPU can check
// them: the engine choice (a pure function of the heuristics' list), the tensors' dims and strides
// against the layouts the reference uses, and the descriptors themselves - tensors, convolution
// descriptor, forward operation and operation graph are finalized by cuDNN here, without a handle,
// for every registered twin, so that a wrong attribute type or count fails here and not on the
// GPU. Engine heuristics, plans and execution need the device (suites/ops runs them).
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
#include "harness/vendor/cudnn_backend.hpp"
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
        EXPECT_EQ(build_conv_graph_without_device(d, layout, spec.dtype), 1u) << op->id() << " at " << d.str();
      } catch (const LibraryError& e) {
        ADD_FAILURE() << op->id() << " at " << d.str() << ": " << e.what();
      }
    }
  }
  EXPECT_EQ(twins, 40u);  // 8 shapes x {f16, bf16} NHWC + 4 rows x {f32, tf32} NHWC + 4 rows x 4 dtypes NCHW
}

// The engine-reading code (global index, numerical and behavior notes) on real engines: those of
// the 1x1 and conv_in graphs that cuDNN finalizes without a device. A wrong attribute type fails
// the read (LibraryError) or returns values outside the enums.
TEST(ConvCudnnGraph, EnginesOfTheGraphAreDescribedWithoutADevice) {
  for (const ConvDims& d : {kShapes[5], kShapes[6]}) {
    for (ConvLayout l : {ConvLayout::NHWC, ConvLayout::NCHW}) {
      for (DType math : {DType::F32, DType::F16}) {
        int64_t count = -1;
        std::vector<cudnn_backend::EngineDescription> engines;
        try {
          engines = describe_engines_without_device(d, l, math, count);
        } catch (const LibraryError& e) {
          FAIL() << d.str() << " " << layout_name(l) << ": " << e.what();
        }
        EXPECT_GT(count, 0) << d.str();
        ASSERT_FALSE(engines.empty()) << d.str() << " " << layout_name(l) << ": no engine finalized without a device";
        int64_t previous = -1;
        for (const auto& e : engines) {
          EXPECT_GT(e.global_index, previous);  // in the order asked, each once
          EXPECT_LT(e.global_index, count);
          previous = e.global_index;
          for (const auto n : e.numerical_notes) {
            EXPECT_GE(static_cast<int>(n), 0);
            EXPECT_LT(static_cast<int>(n), static_cast<int>(CUDNN_NUMERICAL_NOTE_TYPE_COUNT));
          }
          for (const auto n : e.behavior_notes) {
            EXPECT_GE(static_cast<int>(n), 0);
            EXPECT_LT(static_cast<int>(n), static_cast<int>(CUDNN_BEHAVIOR_NOTE_TYPE_COUNT));
          }
        }
      }
    }
  }
}

// cuDNN validates the descriptors, so a broken one fails here with the step that failed.
TEST(ConvCudnnGraph, AnInvalidConvolutionFailsWithTheStep) {
  const ConvDims d{2, 4, 4, 16, 16, 3, 3, 1, -2};  // a negative padding, and a -2 x -2 output
  ASSERT_FALSE(d.valid());
  try {
    (void)build_conv_graph_without_device(d, ConvLayout::NHWC, DType::F16);
    FAIL() << "a negative padding finalized";
  } catch (const LibraryError& e) {
    EXPECT_EQ(e.library(), "cuDNN");
    EXPECT_NE(std::string(e.what()).find("cuDNN conv graph"), std::string::npos) << e.what();
  }
}

TEST(CudnnBackendNames, KnobAndNoteNamesFollowTheHeader) {
  using namespace cudnn_backend;
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_SWIZZLE), "SWIZZLE");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_TILE_SIZE), "TILE_SIZE");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_EDGE), "EDGE");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_MULTIPLY), "MULTIPLY");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_SPLIT_K_BUF), "SPLIT_K_BUF");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_TILEK), "TILEK");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_STAGES), "STAGES");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_REDUCTION_MODE), "REDUCTION_MODE");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_SPLIT_K_SLC), "SPLIT_K_SLC");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_IDX_MODE), "IDX_MODE");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_SPECFILT), "SPECFILT");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_KERNEL_CFG), "KERNEL_CFG");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_WORKSPACE), "WORKSPACE");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_TILE_CGA_M), "TILE_CGA_M");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_TILE_CGA_N), "TILE_CGA_N");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_BLOCK_SIZE), "BLOCK_SIZE");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_OCCUPANCY), "OCCUPANCY");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_ARRAY_SIZE_PER_THREAD), "ARRAY_SIZE_PER_THREAD");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_SPLIT_COLS), "SPLIT_COLS");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_TILE_ROWS), "TILE_ROWS");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_TILE_COLS), "TILE_COLS");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_LOAD_SIZE), "LOAD_SIZE");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_CTA_COUNT), "CTA_COUNT");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_STREAM_K), "STREAM_K");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_SPLIT_P_SLC), "SPLIT_P_SLC");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_TILE_M), "TILE_M");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_TILE_N), "TILE_N");
  EXPECT_EQ(knob_type_name(CUDNN_KNOB_TYPE_WARP_SPEC_CFG), "WARP_SPEC_CFG");
  EXPECT_EQ(knob_type_name(1000), "knob 1000");
  EXPECT_EQ(knob_type_name(-1), "knob -1");

  EXPECT_EQ(numerical_note_name(CUDNN_NUMERICAL_NOTE_TENSOR_CORE), "TENSOR_CORE");
  EXPECT_EQ(numerical_note_name(CUDNN_NUMERICAL_NOTE_STRICT_NAN_PROP), "STRICT_NAN_PROP");
  EXPECT_EQ(behavior_note_name(CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION), "RUNTIME_COMPILATION");
  EXPECT_EQ(behavior_note_name(CUDNN_BEHAVIOR_NOTE_REQUIRES_BIAS_INT8x32_REORDER), "REQUIRES_BIAS_INT8x32_REORDER");
  EXPECT_EQ(behavior_note_name(CUDNN_BEHAVIOR_NOTE_SUPPORTS_CUDA_GRAPH_NATIVE_API), "SUPPORTS_CUDA_GRAPH_NATIVE_API");

  EXPECT_EQ(knobs_text({}), "none");
  EXPECT_EQ(knobs_text({{CUDNN_KNOB_TYPE_TILE_SIZE, 3}, {CUDNN_KNOB_TYPE_STAGES, 4}}), "TILE_SIZE=3 STAGES=4");
}

}  // namespace
}  // namespace archbench::kernels::conv
