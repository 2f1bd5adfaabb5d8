#include "kernels/conv/conv_cudnn_graph.hpp"

#include <cudnn.h>

#include <deque>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "harness/util/cuda_raii.hpp"
#include "harness/vendor/cudnn_backend.hpp"
#include "harness/vendor/cudnn_check.hpp"
#include "kernels/conv/conv_engine_choice.hpp"

namespace archbench::kernels::conv {
namespace {

using cudnn_backend::Descriptor;
using Dims4 = ConvGraphTensors::Dims4;

// Unique ids of the tensors the variant pack binds.
constexpr int64_t kUidX = 1, kUidW = 2, kUidY = 3;

// Strides of a tensor with logical dims [n, c, h, w]: channels-last or packed row-major.
Dims4 strides_of(const Dims4& dims, bool channels_last) {
  const int64_t c = dims[1], h = dims[2], w = dims[3];
  if (channels_last) return {h * w * c, 1, w * c, c};
  return {c * h * w, h * w, w, 1};
}

cudnnDataType_t io_type(DType math) {
  switch (math) {
    case DType::F32:
    case DType::TF32: return CUDNN_DATA_FLOAT;
    case DType::F16: return CUDNN_DATA_HALF;
    case DType::BF16: return CUDNN_DATA_BFLOAT16;
    case DType::E4M3: break;
  }
  throw std::invalid_argument("conv cuDNN graph twin: f32, tf32, f16 or bf16 (got " + std::string(dtype_name(math)) + ")");
}

// Every descriptor the graph needs alive until the plan is gone, in creation order. A deque, so
// that the pointers add() hands out stay valid while more are added.
struct GraphParts {
  std::string label;
  std::deque<Descriptor> keep;
  std::vector<cudnnBackendDescriptor_t> ops;

  // A pointer, not a reference: g++ 13's -Wdangling-reference flags references bound to the
  // result of a call that takes a temporary.
  const Descriptor* add(Descriptor d) {
    keep.push_back(std::move(d));
    return &keep.back();
  }
};

Descriptor make_tensor(const GraphParts& g, const char* name, int64_t uid, cudnnDataType_t type, const Dims4& dims,
                       const Dims4& strides) {
  Descriptor t(CUDNN_BACKEND_TENSOR_DESCRIPTOR, g.label + ": tensor " + name);
  const int64_t alignment = 16;  // cudaMalloc'd buffers, used from their first byte
  t.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_DATA_TYPE), CUDNN_TYPE_DATA_TYPE, 1, &type);
  t.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_DIMENSIONS), CUDNN_TYPE_INT64, 4, dims.data());
  t.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_STRIDES), CUDNN_TYPE_INT64, 4, strides.data());
  t.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_UNIQUE_ID), CUDNN_TYPE_INT64, 1, &uid);
  t.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT), CUDNN_TYPE_INT64, 1, &alignment);
  t.finalize();
  return t;
}

// x, w, y, the convolution descriptor and the forward operation, added to `g`.
void build_convolution(GraphParts& g, const ConvDims& d, ConvLayout layout, DType math) {
  const ConvGraphTensors t = conv_graph_tensors(d, layout);
  const cudnnDataType_t type = io_type(math);
  const Descriptor* x = g.add(make_tensor(g, "x", kUidX, type, t.x_dims, t.x_strides));
  const Descriptor* w = g.add(make_tensor(g, "w", kUidW, type, t.w_dims, t.w_strides));
  const Descriptor* y = g.add(make_tensor(g, "y", kUidY, type, t.y_dims, t.y_strides));

  Descriptor conv(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR, g.label + ": convolution descriptor");
  // fp32 accumulation for every dtype, as the legacy twin's CUDNN_DATA_FLOAT compute type; whether
  // fp32 data may take TF32 tensor cores is the engine's (its notes), see conv_engine_choice.hpp.
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  const cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;  // nn.Conv2d: the filter is not flipped
  const int64_t spatial_dims = 2;
  const std::array<int64_t, 2> padding{d.pad, d.pad};
  const std::array<int64_t, 2> dilation{1, 1};
  const std::array<int64_t, 2> stride{d.stride, d.stride};
  conv.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_CONVOLUTION_COMP_TYPE), CUDNN_TYPE_DATA_TYPE, 1, &compute);
  conv.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_CONVOLUTION_CONV_MODE), CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode);
  conv.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS), CUDNN_TYPE_INT64, 1, &spatial_dims);
  conv.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS), CUDNN_TYPE_INT64, spatial_dims,
           padding.data());
  conv.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS), CUDNN_TYPE_INT64, spatial_dims,
           padding.data());
  conv.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_CONVOLUTION_DILATIONS), CUDNN_TYPE_INT64, spatial_dims, dilation.data());
  conv.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES), CUDNN_TYPE_INT64, spatial_dims,
           stride.data());
  conv.finalize();

  Descriptor op(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, g.label + ": convolution forward op");
  // y = alpha * conv(x, w) + beta * y; float scalars for the float compute type.
  const float alpha = 1.0f;
  const float beta = 0.0f;
  op.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X), *x);
  op.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W), *w);
  op.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y), *y);
  op.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC), conv);
  op.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA), CUDNN_TYPE_FLOAT, 1, &alpha);
  op.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA), CUDNN_TYPE_FLOAT, 1, &beta);
  op.finalize();
  g.add(std::move(conv));
  g.ops.push_back(g.add(std::move(op))->get());
}

GraphParts build_graph(const ConvDims& d, ConvLayout layout, DType math) {
  GraphParts g;
  g.label = "cuDNN conv graph " + d.str() + " " + layout_name(layout) + " " + std::string(dtype_name(math));
  build_convolution(g, d, layout, math);
  return g;
}

std::string notes_text(const std::vector<cudnnBackendNumericalNote_t>& notes) {
  if (notes.empty()) return "none";
  std::string s;
  for (const auto n : notes) s += (s.empty() ? "" : " ") + cudnn_backend::numerical_note_name(n);
  return s;
}

// The chosen plan with everything it references, its workspace and a variant pack for the
// problem's tensors.
class CudnnGraphConvLauncher final : public ConvLauncher {
 public:
  CudnnGraphConvLauncher(GraphParts parts, cudnnBackendDescriptor_t plan, int64_t workspace_bytes,
                         std::string description)
      : parts_(std::move(parts)), plan_(plan), workspace_(static_cast<size_t>(workspace_bytes)),
        description_(std::move(description)) {}

  void bind(const DeviceTensor& x, const DeviceTensor& w, const DeviceTensor& y) override {
    const std::array<void*, 3> pointers{x.buffer.get(), w.buffer.get(), y.buffer.get()};
    variant_pack_ = cudnn_backend::make_variant_pack(parts_.label, {kUidX, kUidW, kUidY},
                                                     {pointers.begin(), pointers.end()}, workspace_.get());
    bound_ = pointers;
  }

  void launch(const DeviceTensor& x, const DeviceTensor& w, DeviceTensor& y, cudaStream_t stream) override {
    const std::array<void*, 3> given{x.buffer.get(), w.buffer.get(), y.buffer.get()};
    if (!variant_pack_ || given != bound_) {
      throw std::logic_error(parts_.label + ": launch() with tensors that bind() did not bind");
    }
    const cudnnHandle_t h = cudnn_handle();
    ARCHBENCH_CUDNN_CHECK(cudnnSetStream(h, stream));
    ARCHBENCH_CUDNN_CHECK(cudnnBackendExecute(h, plan_, variant_pack_->get()));
  }

  [[nodiscard]] std::string implementation() const override { return description_; }

 private:
  GraphParts parts_;               // owns plan_ and what it references
  cudnnBackendDescriptor_t plan_;  // in parts_.keep
  DeviceBuffer workspace_;
  std::string description_;
  std::unique_ptr<Descriptor> variant_pack_;
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

size_t build_conv_graph_without_device(const ConvDims& d, ConvLayout layout, DType math) {
  const GraphParts g = build_graph(d, layout, math);
  (void)cudnn_backend::make_operation_graph(g.ops, nullptr, g.label);
  return g.ops.size();
}

std::vector<cudnn_backend::EngineDescription> describe_engines_without_device(const ConvDims& d, ConvLayout layout,
                                                                            DType math, int64_t& engine_count) {
  GraphParts g = build_graph(d, layout, math);
  const Descriptor* graph = g.add(cudnn_backend::make_operation_graph(g.ops, nullptr, g.label));
  engine_count = cudnn_backend::engine_count(*graph);
  std::vector<cudnn_backend::EngineDescription> engines;
  for (int64_t i = 0; i < engine_count; ++i) {
    std::unique_ptr<Descriptor> engine;
    try {
      engine = std::make_unique<Descriptor>(
          cudnn_backend::make_engine(*graph, i, g.label + ": engine " + std::to_string(i)));
    } catch (const LibraryError&) {
      continue;  // this engine does not take the graph, or needs the device to say so
    }
    engines.push_back(cudnn_backend::describe_engine(*engine));  // a failure here is the reader's: it throws
  }
  return engines;
}

std::unique_ptr<ConvLauncher> make_cudnn_graph_launcher(const ConvDims& d, ConvLayout layout, DType math,
                                                        int64_t max_workspace_bytes, std::string& why_not) {
  (void)io_type(math);  // std::invalid_argument before any cuDNN call
  GraphParts parts;
  std::vector<EngineCandidate> candidates;
  std::vector<std::unique_ptr<Descriptor>> plans;  // those finalized, by candidate
  std::vector<int64_t> workspaces;
  std::optional<cudnn_backend::HeuristicResults> heur;
  EngineChoice choice;
  try {
    parts = build_graph(d, layout, math);
    const cudnnHandle_t handle = cudnn_handle();
    const Descriptor* graph = parts.add(cudnn_backend::make_operation_graph(parts.ops, handle, parts.label));
    heur.emplace(cudnn_backend::heuristic_engine_configs(*graph, parts.label));
    for (const Descriptor& config : heur->configs) {
      const cudnn_backend::EngineDescription e = cudnn_backend::describe_config(config);
      candidates.push_back({e.global_index, e.numerical_notes, e.behavior_notes});
    }
    plans.resize(candidates.size());
    workspaces.assign(candidates.size(), 0);
    const size_t n = candidates.size();
    auto finalize = [&](size_t i) {
      PlanOutcome o;
      try {
        plans[i] = std::make_unique<Descriptor>(cudnn_backend::make_execution_plan(
            handle, heur->configs[i],
            parts.label + ": execution plan (engine config " + std::to_string(i) + " of " + std::to_string(n) + ")"));
        workspaces[i] = cudnn_backend::plan_workspace_bytes(*plans[i]);
        o.finalized = true;
        o.workspace_bytes = workspaces[i];
      } catch (const LibraryError& e) {
        plans[i].reset();
        o.refusal = e.status();
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
  const Descriptor& config = heur->configs[i];
  std::string knobs;
  try {
    knobs = cudnn_backend::knobs_text(cudnn_backend::knob_choices(config));
  } catch (const LibraryError& e) {
    knobs = "unreadable (" + e.status() + ")";  // the engine index still names what runs
  }
  const std::string description = "cuDNN graph: engine " + std::to_string(candidates[i].global_index) +
                                  " (heuristic rank " + std::to_string(i + 1) + " of " +
                                  std::to_string(candidates.size()) + "), knobs " + knobs + ", notes " +
                                  notes_text(candidates[i].numerical_notes) + ", workspace " +
                                  std::to_string(workspaces[i]) + " B";
  const cudnnBackendDescriptor_t plan = plans[i]->get();
  const int64_t workspace = workspaces[i];
  // Keep the plan and the heuristics' results it was made from; drop the unused plans.
  parts.add(std::move(heur->heuristics));
  for (auto& c : heur->configs) parts.add(std::move(c));
  parts.add(std::move(*plans[i]));
  return std::make_unique<CudnnGraphConvLauncher>(std::move(parts), plan, workspace, description);
}

}  // namespace archbench::kernels::conv
