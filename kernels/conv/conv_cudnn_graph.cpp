#include "kernels/conv/conv_cudnn_graph.hpp"

#include <cudnn_frontend.h>

#include <array>
#include <exception>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "harness/util/cuda_raii.hpp"
#include "harness/vendor/cudnn_check.hpp"
#include "harness/vendor/cudnn_frontend_loading.hpp"
#include "kernels/conv/conv_cudnn.hpp"
#include "kernels/conv/conv_engine_choice.hpp"

namespace archbench::kernels::conv {
namespace {

namespace fe = cudnn_frontend;
using Dims4 = ConvGraphTensors::Dims4;

// Unique ids of the tensors the variant pack binds.
constexpr int64_t kUidX = 1, kUidW = 2, kUidY = 3;

// Strides of a tensor with logical dims [n, c, h, w]: channels-last or packed row-major.
Dims4 strides_of(const Dims4& dims, bool channels_last) {
  const int64_t c = dims[1], h = dims[2], w = dims[3];
  if (channels_last) return {h * w * c, 1, w * c, c};
  return {c * h * w, h * w, w, 1};
}

// Runs one step of cudnn-frontend's descriptor builders, which throw cudnnException: as the
// LibraryError every twin throws, naming the step.
template <typename Step>
decltype(auto) step(const std::string& label, const char* what, Step&& s) {
  try {
    return s();
  } catch (fe::cudnnException& e) {  // getCudnnStatus() is not const
    throw LibraryError("cuDNN", fe::to_string(e.getCudnnStatus()), label + ": " + what + ": " + e.what());
  }
}

// The forward convolution of the operator's tensors (their layout is in the strides),
// cross-correlation as nn.Conv2d, the shape's padding and stride, no dilation, fp32 accumulation
// for every dtype (as the legacy twin's CUDNN_DATA_FLOAT compute type): the descriptors that
// finalize without a device.
fe::Operation convolution(const ConvDims& d, ConvLayout layout, DType math, const std::string& label) {
  const ConvGraphTensors t = conv_graph_tensors(d, layout);
  const cudnnDataType_t type = cudnn_conv_data_type(math);
  auto tensor = [&](const char* name, int64_t uid, const Dims4& dims, const Dims4& strides) {
    return step(label, name, [&] {
      return fe::TensorBuilder()
          .setDim(4, dims.data())
          .setStride(4, strides.data())
          .setId(uid)
          .setAlignment(16)  // cudaMalloc'd buffers, used from their first byte
          .setDataType(type)
          .build();
    });
  };
  const fe::Tensor x = tensor("tensor x", kUidX, t.x_dims, t.x_strides);
  const fe::Tensor w = tensor("tensor w", kUidW, t.w_dims, t.w_strides);
  const fe::Tensor y = tensor("tensor y", kUidY, t.y_dims, t.y_strides);
  const std::array<int64_t, 2> padding{d.pad, d.pad};
  const std::array<int64_t, 2> stride{d.stride, d.stride};
  const std::array<int64_t, 2> dilation{1, 1};
  const fe::ConvDesc conv = step(label, "convolution descriptor", [&] {
    return fe::ConvDescBuilder()
        .setComputeType(CUDNN_DATA_FLOAT)
        .setMathMode(CUDNN_CROSS_CORRELATION)  // nn.Conv2d: the filter is not flipped
        .setSpatialDimCount(2)
        .setSpatialStride(2, stride.data())
        .setPrePadding(2, padding.data())
        .setPostPadding(2, padding.data())
        .setDilation(2, dilation.data())
        .build();
  });
  return step(label, "convolution forward op", [&] {
    return fe::OperationBuilder(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR)
        .setxDesc(x)
        .setwDesc(w)
        .setyDesc(y)
        .setcDesc(conv)
        .setAlpha(1.0f)  // y = conv(x, w): float scalars for the float compute type
        .setBeta(0.0f)
        .build();
  });
}

std::string label_of(const ConvDims& d, ConvLayout layout, DType math) {
  return "cuDNN conv graph " + d.str() + " " + layout_name(layout) + " " + std::string(dtype_name(math));
}

// The numerical notes conv_engine_choice.hpp reads, and those worth naming in implementation().
template <cudnnBackendNumericalNote_t... kNotes>
std::vector<cudnnBackendNumericalNote_t> numerical_notes_of(cudnnBackendDescriptor_t config) {
  std::vector<cudnnBackendNumericalNote_t> notes;
  ((fe::hasNumericalNote<kNotes>(config) ? notes.push_back(kNotes) : void()), ...);
  return notes;
}

EngineCandidate candidate_of(const fe::ManagedOpaqueDescriptor& config, const std::string& label) {
  EngineCandidate c;
  std::vector<std::pair<cudnnBackendKnobType_t, int64_t>> knobs;
  const cudnnStatus_t s = fe::detail::get_engine_id_and_knobs(config, c.global_index, knobs);
  if (s != CUDNN_STATUS_SUCCESS) throw LibraryError("cuDNN", fe::to_string(s), label + ": engine config");
  const cudnnBackendDescriptor_t raw = config->get_backend_descriptor();
  c.numerical_notes = numerical_notes_of<CUDNN_NUMERICAL_NOTE_TENSOR_CORE, CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS,
                                         CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION, CUDNN_NUMERICAL_NOTE_FFT,
                                         CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC, CUDNN_NUMERICAL_NOTE_WINOGRAD>(raw);
  if (fe::hasBehaviorNote<CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION>(raw)) {
    c.behavior_notes.push_back(CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION);
  }
  return c;
}

std::string notes_text(const std::vector<cudnnBackendNumericalNote_t>& notes) {
  if (notes.empty()) return "none";
  std::string s;
  for (const auto n : notes) {
    std::string name = fe::to_string(n);  // "CUDNN_NUMERICAL_NOTE_TENSOR_CORE"
    const std::string prefix = "CUDNN_NUMERICAL_NOTE_";
    if (name.starts_with(prefix)) name.erase(0, prefix.size());
    s += (s.empty() ? "" : " ") + name;
  }
  return s;
}

// The chosen plan (which holds the graph and the engine config it was made from), its workspace
// and a variant pack for the problem's tensors.
class CudnnGraphConvLauncher final : public ConvLauncher {
 public:
  CudnnGraphConvLauncher(std::string label, fe::ExecutionPlan plan, std::string description)
      : label_(std::move(label)), plan_(std::move(plan)),
        workspace_(static_cast<size_t>(plan_.getWorkspaceSize())), description_(std::move(description)) {}

  void bind(const DeviceTensor& x, const DeviceTensor& w, const DeviceTensor& y) override {
    std::array<void*, 3> pointers{x.buffer.get(), w.buffer.get(), y.buffer.get()};
    const std::array<int64_t, 3> uids{kUidX, kUidW, kUidY};
    variant_pack_ = step(label_, "variant pack", [&] {
      return fe::VariantPackBuilder()
          .setWorkspacePointer(workspace_.get())
          .setDataPointers(3, pointers.data())
          .setUids(3, uids.data())
          .build();
    });
    bound_ = pointers;
  }

  void launch(const DeviceTensor& x, const DeviceTensor& w, DeviceTensor& y, cudaStream_t stream) override {
    const std::array<void*, 3> given{x.buffer.get(), w.buffer.get(), y.buffer.get()};
    if (!variant_pack_ || given != bound_) {
      throw std::logic_error(label_ + ": launch() with tensors that bind() did not bind");
    }
    const cudnnHandle_t h = cudnn_handle();
    ARCHBENCH_CUDNN_CHECK(cudnnSetStream(h, stream));
    ARCHBENCH_CUDNN_CHECK(cudnnBackendExecute(h, plan_.get_raw_desc(), variant_pack_->get_raw_desc()));
  }

  [[nodiscard]] std::string implementation() const override { return description_; }

 private:
  std::string label_;
  fe::ExecutionPlan plan_;
  DeviceBuffer workspace_;
  std::string description_;
  std::optional<fe::VariantPack> variant_pack_;
  std::array<void*, 3> bound_{};
};

}  // namespace

ConvGraphTensors conv_graph_tensors(const ConvDims& d, ConvLayout layout) {
  const bool channels_last = layout == ConvLayout::NHWC;
  ConvGraphTensors t{};
  t.x_dims = {d.N, d.C, d.H, d.W};
  t.w_dims = {d.K, d.C, d.R, d.S};
  t.y_dims = {d.N, d.K, d.P(), d.Q()};
  t.x_strides = strides_of(t.x_dims, channels_last);
  t.w_strides = strides_of(t.w_dims, channels_last);
  t.y_strides = strides_of(t.y_dims, channels_last);
  return t;
}

size_t build_conv_operation_without_device(const ConvDims& d, ConvLayout layout, DType math) {
  use_loaded_cudnn_for_frontend();
  (void)convolution(d, layout, math, label_of(d, layout, math));
  return 1;
}

std::unique_ptr<ConvLauncher> make_cudnn_graph_launcher(const ConvDims& d, ConvLayout layout, DType math,
                                                        int64_t max_workspace_bytes, std::string& why_not) {
  (void)cudnn_conv_data_type(math);  // std::invalid_argument before any cuDNN call
  const cudnnHandle_t handle = cudnn_handle();  // throws when cuDNN cannot be loaded or has no device
  use_loaded_cudnn_for_frontend();
  const std::string label = label_of(d, layout, math);
  std::vector<EngineCandidate> candidates;
  std::vector<std::optional<fe::ExecutionPlan>> plans;  // those finalized, by candidate
  std::vector<std::string> engine_tags;
  EngineChoice choice;
  try {
    const fe::Operation op = convolution(d, layout, math, label);
    std::array<const fe::Operation*, 1> ops{&op};
    fe::OperationGraph graph = step(label, "operation graph", [&] {
      return fe::OperationGraphBuilder().setHandle(handle).setOperationGraph(ops.size(), ops.data()).build();
    });
    fe::EngineHeuristics heuristics = step(label, "heuristics (mode A)", [&] {
      return fe::EngineHeuristicsBuilder().setOperationGraph(graph).setHeurMode(CUDNN_HEUR_MODE_A).build();
    });
    // The heuristics' engine configs, in their order (a reference into `heuristics`, kept alive by
    // the plans made from them).
    const auto& configs = step(label, "engine configs", [&]() -> auto& {
      return heuristics.getEngineConfig(heuristics.getEngineConfigCount());
    });
    for (const auto& config : configs) {
      candidates.push_back(candidate_of(config, label));
      engine_tags.push_back(fe::detail::get_engine_tag(config));
    }
    plans.resize(candidates.size());
    auto finalize = [&](size_t i) {
      PlanOutcome o;
      try {
        plans[i] = fe::ExecutionPlanBuilder().setHandle(handle).setEngineConfig(configs[i], graph.getTag()).build();
        o.finalized = true;
        o.workspace_bytes = plans[i]->getWorkspaceSize();
      } catch (fe::cudnnException& e) {
        plans[i].reset();
        o.refusal = fe::to_string(e.getCudnnStatus());
      }
      return o;
    };
    choice = choose_engine(candidates, math, max_workspace_bytes, finalize);
  } catch (const LibraryError& e) {
    why_not = e.what();
    return nullptr;
  }
  if (!choice.chosen) {
    why_not = std::to_string(candidates.size()) + " engine configs: " + choice.reason;
    return nullptr;
  }
  const size_t i = *choice.chosen;
  fe::ExecutionPlan& plan = *plans[i];
  // The frontend's engine tag names the engine and its knob choices: "eng17_k2=3_k3=4" (knob types
  // as cudnnBackendKnobType_t numbers).
  const std::string description = "cuDNN graph: " + engine_tags[i] + " (heuristic rank " + std::to_string(i + 1) +
                                  " of " + std::to_string(candidates.size()) + "), notes " +
                                  notes_text(candidates[i].numerical_notes) + ", workspace " +
                                  std::to_string(plan.getWorkspaceSize()) + " B";
  return std::make_unique<CudnnGraphConvLauncher>(label, std::move(plan), description);
}

}  // namespace archbench::kernels::conv
