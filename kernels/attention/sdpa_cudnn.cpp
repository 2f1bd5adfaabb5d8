#include "kernels/attention/sdpa_cudnn.hpp"

#include <cudnn_frontend.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "harness/ops/tensor.hpp"
#include "harness/util/cuda_raii.hpp"
#include "harness/vendor/cudnn_frontend_loading.hpp"
#include "harness/vendor/cudnn_check.hpp"

namespace archbench::kernels::attention {
namespace {

namespace fe = cudnn_frontend;
using TensorPtr = std::shared_ptr<fe::graph::Tensor_attributes>;

// Unique ids of the tensors the variant pack binds.
enum Uid : int64_t {
  kQ = 1, kK, kV, kO,
  kDescaleQ = 10, kDescaleK, kDescaleV, kDescaleS, kScaleS, kScaleO, kAmaxS, kAmaxO,
};

// The frontend's error codes as their enumerators are spelled: the status of a LibraryError.
const char* code_name(fe::error_code_t c) {
  switch (c) {
    case fe::error_code_t::OK: return "OK";
    case fe::error_code_t::ATTRIBUTE_NOT_SET: return "ATTRIBUTE_NOT_SET";
    case fe::error_code_t::SHAPE_DEDUCTION_FAILED: return "SHAPE_DEDUCTION_FAILED";
    case fe::error_code_t::INVALID_TENSOR_NAME: return "INVALID_TENSOR_NAME";
    case fe::error_code_t::INVALID_VARIANT_PACK: return "INVALID_VARIANT_PACK";
    case fe::error_code_t::GRAPH_NOT_SUPPORTED: return "GRAPH_NOT_SUPPORTED";
    case fe::error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED: return "GRAPH_EXECUTION_PLAN_CREATION_FAILED";
    case fe::error_code_t::GRAPH_EXECUTION_FAILED: return "GRAPH_EXECUTION_FAILED";
    case fe::error_code_t::HEURISTIC_QUERY_FAILED: return "HEURISTIC_QUERY_FAILED";
    case fe::error_code_t::UNSUPPORTED_GRAPH_FORMAT: return "UNSUPPORTED_GRAPH_FORMAT";
    case fe::error_code_t::CUDA_API_FAILED: return "CUDA_API_FAILED";
    case fe::error_code_t::CUDNN_BACKEND_API_FAILED: return "CUDNN_BACKEND_API_FAILED";
    case fe::error_code_t::INVALID_CUDA_DEVICE: return "INVALID_CUDA_DEVICE";
    case fe::error_code_t::HANDLE_ERROR: return "HANDLE_ERROR";
    case fe::error_code_t::INVALID_VALUE: return "INVALID_VALUE";
    case fe::error_code_t::NVRTC_COMPILATION_FAILED: return "NVRTC_COMPILATION_FAILED";
  }
  return "frontend error";
}

// Throws LibraryError("cuDNN", <code>, "<label>: <step>: <message>") unless `e` is good.
void check(fe::error_t e, const std::string& label, const char* step) {
  if (e.is_good()) return;
  throw LibraryError("cuDNN", code_name(e.get_code()), label + ": " + step + ": " + e.get_message());
}

fe::DataType_t io_type(DType dtype) {
  switch (dtype) {
    case DType::F16: return fe::DataType_t::HALF;
    case DType::BF16: return fe::DataType_t::BFLOAT16;
    case DType::E4M3: return fe::DataType_t::FP8_E4M3;
    case DType::E5M2: return fe::DataType_t::FP8_E5M2;
    default: break;
  }
  throw std::invalid_argument("cuDNN SDPA: f16, bf16, e4m3 or e5m2 only (got " + std::string(dtype_name(dtype)) + ")");
}

// A dense BHND tensor of the graph.
TensorPtr bhnd(fe::graph::Graph& g, const char* name, Uid uid, int64_t b, int64_t h, int64_t n, int64_t d) {
  return g.tensor(fe::graph::Tensor_attributes().set_name(name).set_uid(uid).set_dim({b, h, n, d}).set_stride(
      {h * n * d, n * d, d, 1}));
}

// One float in device memory: a scale the FP8 graph reads, or an amax it writes.
TensorPtr scalar(fe::graph::Graph& g, const char* name, Uid uid) {
  return g.tensor(fe::graph::Tensor_attributes().set_name(name).set_uid(uid).set_dim({1, 1, 1, 1}).set_stride(
      {1, 1, 1, 1}).set_data_type(fe::DataType_t::FLOAT));
}

// The graph's scales and amaxes in device memory (FP8 only), each in its own allocation;
// upload() waits for its copy, so no launch can read a scale before it lands.
std::vector<std::pair<Uid, DeviceTensor>> fp8_scalars(DType format) {
  const Fp8AttentionScales s = fp8_attention_scales(format);
  const std::pair<Uid, float> values[] = {{kDescaleQ, s.descale_q}, {kDescaleK, s.descale_kv},
                                          {kDescaleV, s.descale_kv}, {kDescaleS, 1.0f / s.scale_p},
                                          {kScaleS, s.scale_p},      {kScaleO, s.scale_o},
                                          {kAmaxS, 0.0f},            {kAmaxO, 0.0f}};
  std::vector<std::pair<Uid, DeviceTensor>> out;
  for (const auto& [uid, value] : values) out.emplace_back(uid, upload(HostTensor{DType::F32, {value}}));
  return out;
}

// The SDPA node and its output O; FP8 adds the scales and the amax outputs. The FP8 format is the
// graph's I/O type, which Q, K, V and O take: sdpa_fp8 only marks the node FP8 (its mma_core_mode,
// which the frontend treats alike for e4m3 and e5m2), and P, what P·V reads, takes Q's type.
void add_sdpa(fe::graph::Graph& g, const AttentionDims& dims, DType dtype) {
  const auto scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dims.D)));
  const auto q = bhnd(g, "Q", kQ, dims.B, dims.H, dims.Nq, dims.D);
  const auto k = bhnd(g, "K", kK, dims.B, dims.H, dims.Nk, dims.D);
  const auto v = bhnd(g, "V", kV, dims.B, dims.H, dims.Nk, dims.D);
  TensorPtr o;
  if (is_fp8(dtype)) {
    auto options = fe::graph::SDPA_fp8_attributes().set_name("sdpa_fp8").set_generate_stats(false).set_attn_scale(scale);
    auto [out, stats, amax_s, amax_o] =
        g.sdpa_fp8(q, k, v, scalar(g, "descale_q", kDescaleQ), scalar(g, "descale_k", kDescaleK),
                   scalar(g, "descale_v", kDescaleV), scalar(g, "descale_s", kDescaleS), scalar(g, "scale_s", kScaleS),
                   scalar(g, "scale_o", kScaleO), options);
    (void)stats;  // none: inference
    amax_s->set_output(true).set_uid(kAmaxS).set_dim({1, 1, 1, 1}).set_stride({1, 1, 1, 1}).set_data_type(
        fe::DataType_t::FLOAT);
    amax_o->set_output(true).set_uid(kAmaxO).set_dim({1, 1, 1, 1}).set_stride({1, 1, 1, 1}).set_data_type(
        fe::DataType_t::FLOAT);
    o = out;
  } else {
    auto options = fe::graph::SDPA_attributes().set_name("sdpa").set_generate_stats(false).set_attn_scale(scale);
    o = g.sdpa(q, k, v, options)[0];
  }
  const int64_t h = dims.H, n = dims.Nq, d = dims.D;
  o->set_output(true).set_uid(kO).set_dim({dims.B, h, n, d}).set_stride({h * n * d, n * d, d, 1});
}

// The graph, its plan and workspace, the scalars FP8 needs and the variant pack: made once per
// problem, so that a launch only sets Q, K, V and O in the pack and executes.
struct SdpaPlan {
  std::shared_ptr<fe::graph::Graph> graph = std::make_shared<fe::graph::Graph>();
  std::unique_ptr<DeviceBuffer> workspace;
  std::vector<std::pair<Uid, DeviceTensor>> fp8;  // empty unless FP8
  std::unordered_map<int64_t, void*> pack;        // uid -> device pointer
  std::string label;  // "cuDNN SDPA f16 B2_H8_Nq4096_Nk4096_D40"
};

std::shared_ptr<SdpaPlan> build_plan(const AttentionDims& dims, DType dtype, cudnnHandle_t handle) {
  auto p = std::make_shared<SdpaPlan>();
  p->label = "cuDNN SDPA " + std::string(dtype_name(dtype)) + " " + dims.str();
  p->graph->set_io_data_type(io_type(dtype))
      .set_intermediate_data_type(fe::DataType_t::FLOAT)
      .set_compute_data_type(fe::DataType_t::FLOAT);
  add_sdpa(*p->graph, dims, dtype);
  check(p->graph->validate(), p->label, "validate");
  check(p->graph->build_operation_graph(handle), p->label, "operation graph");
  check(p->graph->create_execution_plans({fe::HeurMode_t::A}), p->label, "heuristics (mode A)");
  check(p->graph->check_support(handle), p->label, "support");
  // The first engine config, in the heuristics' order, that builds into an execution plan.
  check(p->graph->build_plans(handle, fe::BuildPlanPolicy_t::HEURISTICS_CHOICE), p->label, "execution plan");
  int64_t workspace_bytes = 0;
  check(p->graph->get_workspace_size(workspace_bytes), p->label, "workspace size");
  p->workspace = std::make_unique<DeviceBuffer>(static_cast<size_t>(workspace_bytes));
  if (is_fp8(dtype)) p->fp8 = fp8_scalars(dtype);
  for (const auto& [uid, scalar] : p->fp8) p->pack[uid] = scalar.buffer.get();
  return p;
}

}  // namespace

AttentionLaunch make_sdpa_cudnn_launch(const AttentionDims& dims, DType dtype) {
  (void)io_type(dtype);  // std::invalid_argument before any cuDNN call
  cudnnHandle_t handle = cudnn_handle();  // throws when cuDNN cannot be loaded or has no device
  use_loaded_cudnn_for_frontend();
  std::shared_ptr<SdpaPlan> plan = build_plan(dims, dtype, handle);
  return [plan](const DeviceTensor& q, const DeviceTensor& k, const DeviceTensor& v, DeviceTensor& o,
                cudaStream_t stream) {
    plan->pack[kQ] = q.buffer.get();
    plan->pack[kK] = k.buffer.get();
    plan->pack[kV] = v.buffer.get();
    plan->pack[kO] = o.buffer.get();
    cudnnHandle_t h = cudnn_handle();
    ARCHBENCH_CUDNN_CHECK(cudnnSetStream(h, stream));
    check(plan->graph->execute(h, plan->pack, plan->workspace->get()), plan->label, "execute");
  };
}

}  // namespace archbench::kernels::attention
