#include "kernels/attention/sdpa_cudnn.hpp"

#include <cudnn.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/util/cuda_raii.hpp"
#include "harness/vendor/cudnn_backend.hpp"
#include "harness/vendor/cudnn_check.hpp"

namespace archbench::kernels::attention {
namespace {

using cudnn_backend::Descriptor;

using Dims4 = std::array<int64_t, 4>;

// Row-major strides of a dense 4-D tensor.
Dims4 packed_strides(const Dims4& d) { return {d[1] * d[2] * d[3], d[2] * d[3], d[3], 1}; }

// Every descriptor one graph needs alive until execution, in creation order. A deque, so that
// references handed out by add() stay valid while more descriptors are added.
struct GraphParts {
  std::deque<Descriptor> keep;
  std::vector<cudnnBackendDescriptor_t> ops;
  std::string label;  // "composite graph", "unified SDPA_FWD op"

  // A pointer, not a reference: g++ 13's -Wdangling-reference flags references bound to the
  // result of a call that takes a temporary.
  const Descriptor* add(Descriptor d) {
    keep.push_back(std::move(d));
    return &keep.back();
  }
};

struct TensorSpec {
  const char* name;
  int64_t uid;
  cudnnDataType_t type;
  Dims4 dims;
  Dims4 strides;
  bool is_virtual = false;
  bool by_value = false;
};

// Unique ids of the tensors the variant pack binds.
constexpr int64_t kUidQ = 1, kUidK = 2, kUidV = 3, kUidO = 4, kUidScale = 5;

Descriptor make_tensor(const GraphParts& g, const TensorSpec& t) {
  Descriptor d(CUDNN_BACKEND_TENSOR_DESCRIPTOR, g.label + ": tensor " + t.name);
  const int64_t alignment = 16;
  d.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_DATA_TYPE), CUDNN_TYPE_DATA_TYPE, 1, &t.type);
  d.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_DIMENSIONS), CUDNN_TYPE_INT64, 4, t.dims.data());
  d.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_STRIDES), CUDNN_TYPE_INT64, 4, t.strides.data());
  d.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_UNIQUE_ID), CUDNN_TYPE_INT64, 1, &t.uid);
  d.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT), CUDNN_TYPE_INT64, 1, &alignment);
  if (t.is_virtual) d.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_IS_VIRTUAL), CUDNN_TYPE_BOOLEAN, 1, &t.is_virtual);
  if (t.by_value) d.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_TENSOR_IS_BY_VALUE), CUDNN_TYPE_BOOLEAN, 1, &t.by_value);
  d.finalize();
  return d;
}

// An input or output of an operation: the attribute that names it and the tensor (nullptr: none).
struct Operand {
  cudnnBackendAttributeName_t attr;
  const char* attr_name;
  const Descriptor* tensor;
};

// One scalar attribute of an operation's descriptor (its mode, its math precision).
struct Setting {
  cudnnBackendAttributeName_t attr;
  const char* attr_name;
  cudnnBackendAttributeType_t type;
  const void* value;
};

// A kind of operation: its descriptor's type, the operation's type, and the operation's attribute
// that holds the descriptor.
struct OperationKind {
  const char* name;  // "matmul": in the step text
  cudnnBackendDescriptorType_t desc_type;
  cudnnBackendDescriptorType_t op_type;
  cudnnBackendAttributeName_t desc_attr;
  const char* desc_attr_name;
};

constexpr OperationKind kMatmul{"matmul", CUDNN_BACKEND_MATMUL_DESCRIPTOR, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
                                ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_MATMUL_DESC)};
constexpr OperationKind kPointwise{"pointwise", CUDNN_BACKEND_POINTWISE_DESCRIPTOR,
                                   CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
                                   ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR)};
constexpr OperationKind kReduction{"reduction", CUDNN_BACKEND_REDUCTION_DESCRIPTOR,
                                   CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR,
                                   ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_REDUCTION_DESC)};

// Adds the operation "<label>: <name> <kind> op" to the graph, holding its finalized descriptor
// ("... descriptor", with `settings`) and the operands; the graph keeps both alive.
void add_operation(GraphParts& g, const OperationKind& kind, const char* name, std::initializer_list<Setting> settings,
                   std::initializer_list<Operand> operands) {
  const std::string what = g.label + ": " + name + " " + kind.name;
  Descriptor desc(kind.desc_type, what + " descriptor");
  for (const Setting& s : settings) desc.set(s.attr, s.attr_name, s.type, 1, s.value);
  desc.finalize();
  Descriptor op(kind.op_type, what + " op");
  op.set_desc(kind.desc_attr, kind.desc_attr_name, desc);
  for (const Operand& o : operands) {
    if (o.tensor != nullptr) op.set_desc(o.attr, o.attr_name, *o.tensor);
  }
  op.finalize();
  g.add(std::move(desc));
  g.ops.push_back(g.add(std::move(op))->get());
}

// fp32 math for every operation of the graph.
constexpr cudnnDataType_t kFloatMath = CUDNN_DATA_FLOAT;

void add_matmul(GraphParts& g, const char* name, const Descriptor& a, const Descriptor& b, const Descriptor& c) {
  add_operation(g, kMatmul, name,
                {{ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_MATMUL_COMP_TYPE), CUDNN_TYPE_DATA_TYPE, &kFloatMath}},
                {{ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_MATMUL_ADESC), &a},
                 {ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_MATMUL_BDESC), &b},
                 {ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_MATMUL_CDESC), &c}});
}

// y = x (op) b, or y = op(x) when b is null.
void add_pointwise(GraphParts& g, const char* name, cudnnPointwiseMode_t mode, const Descriptor& x,
                   const Descriptor* b, const Descriptor& y) {
  add_operation(g, kPointwise, name,
                {{ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_POINTWISE_MODE), CUDNN_TYPE_POINTWISE_MODE, &mode},
                 {ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_POINTWISE_MATH_PREC), CUDNN_TYPE_DATA_TYPE, &kFloatMath}},
                {{ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_POINTWISE_XDESC), &x},
                 {ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_POINTWISE_BDESC), b},
                 {ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_POINTWISE_YDESC), &y}});
}

// y[b,h,i,0] = reduce over the last dim of x.
void add_reduction(GraphParts& g, const char* name, cudnnReduceTensorOp_t mode, const Descriptor& x,
                   const Descriptor& y) {
  add_operation(g, kReduction, name,
                {{ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_REDUCTION_OPERATOR), CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, &mode},
                 {ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_REDUCTION_COMP_TYPE), CUDNN_TYPE_DATA_TYPE, &kFloatMath}},
                {{ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_REDUCTION_XDESC), &x},
                 {ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_REDUCTION_YDESC), &y}});
}

struct Shapes {
  int64_t b, h, sq, skv, d;
  cudnnDataType_t io;
  [[nodiscard]] Dims4 q() const { return {b, h, sq, d}; }
  [[nodiscard]] Dims4 kv() const { return {b, h, skv, d}; }
  [[nodiscard]] Dims4 scores() const { return {b, h, sq, skv}; }
  [[nodiscard]] Dims4 rows() const { return {b, h, sq, 1}; }
};

// The graph of the cuDNN frontend's SDPA forward node (inference, no mask), op by op.
void build_composite(GraphParts& g, const Shapes& s) {
  const Dims4 one{1, 1, 1, 1};
  const Dims4 kt_dims{s.b, s.h, s.d, s.skv};
  const Dims4 kt_strides{s.h * s.skv * s.d, s.skv * s.d, 1, s.d};  // K's memory, last two dims swapped
  auto tensor = [&](const TensorSpec& t) { return g.add(make_tensor(g, t)); };
  const auto* q = tensor({"Q", kUidQ, s.io, s.q(), packed_strides(s.q())});
  const auto* kt = tensor({"K^T", kUidK, s.io, kt_dims, kt_strides});
  const auto* v = tensor({"V", kUidV, s.io, s.kv(), packed_strides(s.kv())});
  const auto* o = tensor({"O", kUidO, s.io, s.q(), packed_strides(s.q())});
  const auto* scale = tensor({"scale", kUidScale, CUDNN_DATA_FLOAT, one, one, false, true});
  int64_t next_uid = 100;
  auto scores = [&](const char* name, cudnnDataType_t type) {
    return tensor({name, next_uid++, type, s.scores(), packed_strides(s.scores()), true});
  };
  auto rows = [&](const char* name) {
    return tensor({name, next_uid++, CUDNN_DATA_FLOAT, s.rows(), packed_strides(s.rows()), true});
  };
  const auto* s_raw = scores("S", CUDNN_DATA_FLOAT);
  const auto* s_scaled = scores("S*scale", CUDNN_DATA_FLOAT);
  const auto* row_max = rows("rowmax");
  const auto* s_shift = scores("S-rowmax", CUDNN_DATA_FLOAT);
  const auto* s_exp = scores("exp", CUDNN_DATA_FLOAT);
  const auto* row_sum = rows("rowsum");
  const auto* log_sum = rows("log(rowsum)");
  const auto* stats = rows("stats");
  const auto* p = scores("P", s.io);  // the backend takes bmm2's A operand in the I/O type

  add_matmul(g, "bmm1 (Q K^T)", *q, *kt, *s_raw);
  add_pointwise(g, "attn_scale", CUDNN_POINTWISE_MUL, *s_raw, scale, *s_scaled);
  add_reduction(g, "softmax max", CUDNN_REDUCE_TENSOR_MAX, *s_scaled, *row_max);
  add_pointwise(g, "softmax sub", CUDNN_POINTWISE_SUB, *s_scaled, row_max, *s_shift);
  add_pointwise(g, "softmax exp", CUDNN_POINTWISE_EXP, *s_shift, nullptr, *s_exp);
  add_reduction(g, "softmax sum", CUDNN_REDUCE_TENSOR_ADD, *s_exp, *row_sum);
  add_pointwise(g, "softmax stats log", CUDNN_POINTWISE_LOG, *row_sum, nullptr, *log_sum);
  add_pointwise(g, "softmax stats add", CUDNN_POINTWISE_ADD, *row_max, log_sum, *stats);
  add_pointwise(g, "softmax div", CUDNN_POINTWISE_DIV, *s_exp, row_sum, *p);
  add_matmul(g, "bmm2 (P V)", *p, *v, *o);
}

// One SDPA_FWD operation (cuDNN 9.13+), K in its own [B,H,Nk,d] layout.
void build_unified(GraphParts& g, const Shapes& s) {
  const Dims4 one{1, 1, 1, 1};
  auto tensor = [&](const TensorSpec& t) { return g.add(make_tensor(g, t)); };
  const auto* q = tensor({"Q", kUidQ, s.io, s.q(), packed_strides(s.q())});
  const auto* k = tensor({"K", kUidK, s.io, s.kv(), packed_strides(s.kv())});
  const auto* v = tensor({"V", kUidV, s.io, s.kv(), packed_strides(s.kv())});
  const auto* o = tensor({"O", kUidO, s.io, s.q(), packed_strides(s.q())});
  const auto* scale = tensor({"scale", kUidScale, CUDNN_DATA_FLOAT, one, one, false, true});
  Descriptor op(CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR, g.label + ": SDPA_FWD op");
  op.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_SDPA_FWD_QDESC), *q);
  op.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_SDPA_FWD_KDESC), *k);
  op.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_SDPA_FWD_VDESC), *v);
  op.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_SDPA_FWD_ODESC), *o);
  op.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATION_SDPA_FWD_SCALEDESC), *scale);
  op.finalize();
  g.ops.push_back(g.add(std::move(op))->get());
}

// A finalized execution plan and what it references.
struct Plan {
  GraphParts parts;
  int64_t workspace_bytes;
  cudnnBackendDescriptor_t plan;  // owned by parts.keep
};

// The operation graph of the parts' operations; without a handle (nullptr) it still finalizes,
// which is what a machine without a GPU can check.
Descriptor make_operation_graph(const GraphParts& parts, cudnnHandle_t handle) {
  return cudnn_backend::make_operation_graph(parts.ops, handle, parts.label);
}

// Operation graph -> heuristics (mode A) -> the first engine config that finalizes into a plan.
Plan make_plan(GraphParts parts, cudnnHandle_t handle) {
  const std::string label = parts.label;
  Descriptor graph = make_operation_graph(parts, handle);
  cudnn_backend::HeuristicResults heur = cudnn_backend::heuristic_engine_configs(graph, label);
  const auto returned = static_cast<int64_t>(heur.configs.size());

  // Engine configs the heuristics rank first can still refuse this shape at finalization
  // (NOT_SUPPORTED); try them in order and report every refusal if none takes it.
  std::string refusals;
  for (int64_t i = 0; i < returned; ++i) {
    try {
      Descriptor plan = cudnn_backend::make_execution_plan(
          handle, heur.configs[static_cast<size_t>(i)],
          label + ": execution plan (engine config " + std::to_string(i) + " of " + std::to_string(returned) + ")");
      const int64_t workspace = cudnn_backend::plan_workspace_bytes(plan);
      const cudnnBackendDescriptor_t plan_raw = plan.get();
      Plan result{std::move(parts), workspace, plan_raw};
      result.parts.add(std::move(graph));
      result.parts.add(std::move(heur.heuristics));
      for (auto& c : heur.configs) result.parts.add(std::move(c));
      result.parts.add(std::move(plan));
      return result;
    } catch (const LibraryError& e) {
      refusals += std::string(refusals.empty() ? "" : "; ") + e.what();
    }
  }
  throw LibraryError("cuDNN", "CUDNN_STATUS_NOT_SUPPORTED",
                     label + ": no engine config finalized into an execution plan: " + refusals);
}

cudnnDataType_t io_type(DType dtype) {
  if (dtype == DType::F16) return CUDNN_DATA_HALF;
  if (dtype == DType::BF16) return CUDNN_DATA_BFLOAT16;
  throw std::invalid_argument("cuDNN SDPA: f16 or bf16 only (got " + std::string(dtype_name(dtype)) + ")");
}

GraphParts build_graph(const AttentionDims& dims, DType dtype, SdpaGraph kind) {
  const Shapes shapes{dims.B, dims.H, dims.Nq, dims.Nk, dims.D, io_type(dtype)};
  GraphParts parts;
  if (kind == SdpaGraph::Composite) {
    parts.label = "cuDNN SDPA composite graph";
    build_composite(parts, shapes);
  } else {
    parts.label = "cuDNN SDPA unified SDPA_FWD op";
    build_unified(parts, shapes);
  }
  return parts;
}

// The plan, its workspace, the by-value scale and a variant pack built once for the problem's
// buffers (rebuilt only if they change), so that launch() does no host-side setup.
struct SdpaState {
  explicit SdpaState(Plan p) : plan(std::move(p)), workspace(static_cast<size_t>(plan.workspace_bytes)) {}
  Plan plan;
  DeviceBuffer workspace;
  float scale = 1.0f;
  std::unique_ptr<Descriptor> variant_pack;
  std::array<void*, 4> bound{};  // Q, K, V, O of variant_pack

  void bind(void* q, void* k, void* v, void* o) {
    const std::array<void*, 4> want{q, k, v, o};
    if (variant_pack && want == bound) return;
    // The scale is a by-value tensor: its pointer is host memory.
    variant_pack = cudnn_backend::make_variant_pack("cuDNN SDPA", {kUidQ, kUidK, kUidV, kUidO, kUidScale},
                                                    {q, k, v, o, &scale}, workspace.get());
    bound = want;
  }
};

}  // namespace

size_t build_sdpa_graph_without_device(const AttentionDims& dims, DType dtype, SdpaGraph kind) {
  const GraphParts parts = build_graph(dims, dtype, kind);
  (void)make_operation_graph(parts, nullptr);
  return parts.ops.size();
}

AttentionLaunch make_sdpa_cudnn_launch(const AttentionDims& dims, DType dtype) {
  (void)io_type(dtype);  // std::invalid_argument before any cuDNN call
  cudnnHandle_t handle = cudnn_handle();
  std::unique_ptr<Plan> plan;
  std::string composite_error;
  try {
    plan = std::make_unique<Plan>(make_plan(build_graph(dims, dtype, SdpaGraph::Composite), handle));
  } catch (const LibraryError& e) {
    composite_error = e.what();
  }
  if (!plan) {
    try {
      plan = std::make_unique<Plan>(make_plan(build_graph(dims, dtype, SdpaGraph::Unified), handle));
    } catch (const LibraryError& e) {
      throw LibraryError("cuDNN", e.status(),
                         "no cuDNN SDPA plan for " + dims.str() + " " + std::string(dtype_name(dtype)) + ". [1] " +
                             composite_error + " [2] " + e.what());
    }
  }
  auto state = std::make_shared<SdpaState>(std::move(*plan));
  state->scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dims.D)));
  return [state](const DeviceTensor& q, const DeviceTensor& k, const DeviceTensor& v, DeviceTensor& o,
                 cudaStream_t stream) {
    state->bind(q.buffer.get(), k.buffer.get(), v.buffer.get(), o.buffer.get());
    cudnnHandle_t h = cudnn_handle();
    ARCHBENCH_CUDNN_CHECK(cudnnSetStream(h, stream));
    ARCHBENCH_CUDNN_CHECK(cudnnBackendExecute(h, state->plan.plan, state->variant_pack->get()));
  };
}

}  // namespace archbench::kernels::attention
