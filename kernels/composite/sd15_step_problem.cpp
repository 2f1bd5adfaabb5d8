#include "kernels/composite/sd15_step_problem.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/util/cuda_check.hpp"
#include "harness/util/cuda_raii.hpp"
#include "kernels/attention/attention_kernels.hpp"
#include "kernels/composite/composite_kernels.hpp"
#include "kernels/composite/sd15_step_reference.hpp"
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/elementwise/elementwise_kernels.hpp"
#include "kernels/matmul/gemm_kernels.hpp"
#include "kernels/norm/norm_kernels.hpp"

namespace archbench::kernels::composite {
namespace {

// The device copies of Sd15StepWeights.
struct DeviceWeights {
  DeviceTensor time_w1, time_w2, emb_w;
  DeviceTensor gn1_gamma, gn1_beta, conv1_w, gn2_gamma, gn2_beta, conv2_w;
  DeviceTensor gnt_gamma, gnt_beta, proj_in_w;
  DeviceTensor ln1_gamma, ln1_beta, qkv_w, out_w, ln2_gamma, ln2_beta, ff1_w, ff2_w;
  DeviceTensor proj_out_w;
};

// C[m, n] = A[m, k] · W[n, k]ᵀ on the own tensor-core GEMM.
void gemm(DType dtype, const DeviceTensor& a, const DeviceTensor& w, const DeviceTensor& c, int m, int n, int k,
          cudaStream_t stream) {
  if (dtype == DType::F16) {
    matmul::launch_gemm_tc_f16(a.as<const __half>(), w.as<const __half>(), c.as<__half>(), m, n, k, stream);
  } else if (dtype == DType::BF16) {
    matmul::launch_gemm_tc_bf16(a.as<const __nv_bfloat16>(), w.as<const __nv_bfloat16>(), c.as<__nv_bfloat16>(), m, n,
                                k, stream);
  } else {
    throw std::invalid_argument("sd15_step: the own tensor-core kernels take f16 or bf16");
  }
}

class Sd15StepProblem final : public Problem {
 public:
  Sd15StepProblem(const Sd15StepDims& bench, DType dtype, ProblemScale scale, uint64_t seed)
      : dims_(scale == ProblemScale::Check ? bench.check_dims() : bench), dtype_(dtype) {
    if (!dims_.valid()) throw std::invalid_argument("sd15_step: invalid shape " + dims_.str());
    if (dtype != DType::F16 && dtype != DType::BF16) throw std::invalid_argument("sd15_step: f16 or bf16 only");
    draw_inputs(seed, scale == ProblemScale::Check);  // the benchmark shape is too large for the CPU reference
    allocate_activations();
    plan_launches(bench);
  }

  [[nodiscard]] std::string shape() const override { return dims_.str(); }
  void poison_output() override { poison(y_); }
  void launch(cudaStream_t stream) override {
    for (int s = 0; s < dims_.steps; ++s) enqueue_step(s, stream);
  }
  [[nodiscard]] CheckResult check() const override {
    require_check_scale(!host_x_.empty(), "Sd15StepProblem");
    // Tolerance: the dtype's own. The reference rounds every stored intermediate as the GPU does,
    // so each kernel adds only its own rounding error, and the residual connections keep the
    // chain's output from amplifying earlier errors (every branch is normalized before use).
    const CheckResult r = compare_to_reference(
        download(y_), sd15_step_reference(dims_, host_w_, host_x_, timesteps_, dtype_), tolerance(dtype_));
    verify_memory_stable();
    return r;
  }
  [[nodiscard]] CheckResult check_finite() const override { return check_all_finite(y_); }

 private:
  void draw_inputs(uint64_t seed, bool keep_host) {
    std::mt19937_64 rng(seed);
    const size_t C = static_cast<size_t>(dims_.C);
    constexpr size_t kT = Sd15StepDims::kTimeChannels, kE = Sd15StepDims::kTimeEmbed;
    const size_t inner = Sd15StepDims::kFfInner * C;
    // Draws one tensor, keeps its float64 values for the reference (check scale) and returns the
    // device copy.
    auto draw = [&](std::vector<double>& keep, size_t n, double lo, double hi) {
      if (!keep_host) return random_input(dtype_, n, rng, nullptr, lo, hi);
      HostTensor t;
      DeviceTensor d = random_input(dtype_, n, rng, &t, lo, hi);
      keep = std::move(t.values);
      return d;
    };
    // Uniform in +-sqrt(3 / fan_in): unit-variance inputs give unit-variance outputs, so values
    // stay O(1) along the chain (as trained weights keep them).
    auto weight = [&](std::vector<double>& keep, size_t out, size_t fan_in) {
      const double a = std::sqrt(3.0 / static_cast<double>(fan_in));
      return draw(keep, out * fan_in, -a, a);
    };
    auto gamma = [&](std::vector<double>& keep) { return draw(keep, C, 0.5, 1.5); };
    auto beta = [&](std::vector<double>& keep) { return draw(keep, C, -0.5, 0.5); };

    x0_ = draw(host_x_, dims_.activation_numel(), -1.0, 1.0);
    Sd15StepWeights& h = host_w_;
    DeviceWeights& d = w_;
    d.time_w1 = weight(h.time_w1, kE, kT);
    d.time_w2 = weight(h.time_w2, kE, kE);
    d.emb_w = weight(h.emb_w, C, kE);
    d.gn1_gamma = gamma(h.gn1_gamma);
    d.gn1_beta = beta(h.gn1_beta);
    d.conv1_w = weight(h.conv1_w, C, 9 * C);
    d.gn2_gamma = gamma(h.gn2_gamma);
    d.gn2_beta = beta(h.gn2_beta);
    d.conv2_w = weight(h.conv2_w, C, 9 * C);
    d.gnt_gamma = gamma(h.gnt_gamma);
    d.gnt_beta = beta(h.gnt_beta);
    d.proj_in_w = weight(h.proj_in_w, C, C);
    d.ln1_gamma = gamma(h.ln1_gamma);
    d.ln1_beta = beta(h.ln1_beta);
    d.qkv_w = weight(h.qkv_w, 3 * C, C);
    d.out_w = weight(h.out_w, C, C);
    d.ln2_gamma = gamma(h.ln2_gamma);
    d.ln2_beta = beta(h.ln2_beta);
    d.ff1_w = weight(h.ff1_w, 2 * inner, C);
    d.ff2_w = weight(h.ff2_w, C, inner);
    d.proj_out_w = weight(h.proj_out_w, C, C);

    timesteps_.resize(static_cast<size_t>(dims_.steps) * static_cast<size_t>(dims_.B));
    for (int s = 0; s < dims_.steps; ++s)
      for (int b = 0; b < dims_.B; ++b) timesteps_[static_cast<size_t>(s * dims_.B + b)] = sd15_step_timestep(s, b);
    timesteps_dev_ = upload(HostTensor{DType::F32, timesteps_});
  }

  void allocate_activations() {
    const size_t B = static_cast<size_t>(dims_.B), C = static_cast<size_t>(dims_.C);
    const size_t numel = dims_.activation_numel();
    const size_t inner = Sd15StepDims::kFfInner * numel;  // [rows, 4C]
    auto act = [&](size_t n) { return allocate(dtype_, n); };
    e0_ = act(B * Sd15StepDims::kTimeChannels);
    e1_ = act(B * Sd15StepDims::kTimeEmbed);
    e2_ = act(B * Sd15StepDims::kTimeEmbed);
    e3_ = act(B * Sd15StepDims::kTimeEmbed);
    e4_ = act(B * Sd15StepDims::kTimeEmbed);
    temb_ = act(B * C);
    for (DeviceTensor* t : {&norm_out_, &h1_, &h1b_, &h2_, &x1_, &p_, &ln_out_, &q_, &k_, &v_, &o_, &o_tokens_, &a_,
                            &p2_, &f2_, &p3_, &po_, &state_[0], &state_[1], &y_}) {
      *t = act(numel);
    }
    qkv_ = act(3 * numel);
    f_ = act(2 * inner);
    geglu_out_ = act(inner);
  }

  void plan_launches(const Sd15StepDims& bench) {
    const norm::GroupNormShape gn{dims_.B, dims_.C, dims_.tokens(), Sd15StepDims::kGroups,
                                  norm::GroupNormLayout::NHWC, true};
    gn_silu_plan_ = norm::plan_groupnorm(dtype_, gn);
    norm::GroupNormShape plain = gn;
    plain.silu = false;
    gn_plan_ = norm::plan_groupnorm(dtype_, plain);
    // One workspace per plan: the split kernel's arrival counters count in rounds of its own
    // chunk count, so two plans must not share them. They start at zero and are never reset.
    for (auto [plan, ws] : {std::pair{&gn_silu_plan_, &gn_silu_ws_}, std::pair{&gn_plan_, &gn_ws_}}) {
      *ws = DeviceBuffer(plan->workspace_bytes);
      if (plan->workspace_bytes > 0) {
        ARCHBENCH_CUDA_CHECK(cudaMemset(ws->get(), 0, plan->workspace_bytes));
        finish_legacy_stream();
      }
    }
    conv3_plan_ = conv::plan_conv_tc(dtype_, bench.conv3x3());
    conv1_plan_ = conv::plan_conv_tc(dtype_, bench.conv1x1());
    conv3_ws_ = DeviceBuffer(conv3_plan_.workspace_bytes(dims_.conv3x3()));
    conv1_ws_ = DeviceBuffer(conv1_plan_.workspace_bytes(dims_.conv1x1()));
  }

  // Step s reads the input (step 0) or the previous step's output, and writes the next state
  // buffer (the output tensor at the last step): launch() can be repeated and always computes
  // the same y.
  void enqueue_step(int s, cudaStream_t stream) const {
    const Sd15StepDims& d = dims_;
    const DType dt = dtype_;
    const int rows = static_cast<int>(d.rows()), C = d.C, inner = Sd15StepDims::kFfInner * d.C;
    constexpr int kT = Sd15StepDims::kTimeChannels, kE = Sd15StepDims::kTimeEmbed;
    const size_t numel = d.activation_numel();
    const DeviceTensor& x = s == 0 ? x0_ : state_[(s - 1) % 2];
    const DeviceTensor& out = s == d.steps - 1 ? y_ : state_[s % 2];
    const auto gn_eps = static_cast<float>(kGroupNormEps), ln_eps = static_cast<float>(kLayerNormEps);
    const conv::ConvDims c3 = d.conv3x3(), c1 = d.conv1x1();
    using elementwise::Activation;

    // Time embedding of this step's timesteps -> temb [B, C].
    elementwise::launch_timestep_embedding(dt, timesteps_dev_.as<const float>() + static_cast<size_t>(s) * d.B,
                                           e0_.buffer.get(), d.B, kT, kMaxPeriod, stream);
    gemm(dt, e0_, w_.time_w1, e1_, d.B, kE, kT, stream);
    elementwise::launch_activation(Activation::Silu, dt, e1_.buffer.get(), e2_.buffer.get(), e1_.numel, stream);
    gemm(dt, e2_, w_.time_w2, e3_, d.B, kE, kE, stream);
    elementwise::launch_activation(Activation::Silu, dt, e3_.buffer.get(), e4_.buffer.get(), e3_.numel, stream);
    gemm(dt, e4_, w_.emb_w, temb_, d.B, C, kE, stream);

    // ResBlock: x1 = x + conv2(silu(GN2(conv1(silu(GN1(x))) + temb))).
    norm::launch_groupnorm(gn_silu_plan_, x.buffer.get(), w_.gn1_gamma.buffer.get(), w_.gn1_beta.buffer.get(),
                           norm_out_.buffer.get(), gn_silu_ws_.get(), gn_eps, stream);
    conv::launch_conv_tc(dt, norm_out_.buffer.get(), w_.conv1_w.buffer.get(), h1_.buffer.get(),
                         conv3_ws_.as<float>(), c3, conv3_plan_, stream);
    launch_add_channel_vector(dt, h1_.buffer.get(), temb_.buffer.get(), h1b_.buffer.get(), d.B, d.tokens(), C, stream);
    norm::launch_groupnorm(gn_silu_plan_, h1b_.buffer.get(), w_.gn2_gamma.buffer.get(), w_.gn2_beta.buffer.get(),
                           norm_out_.buffer.get(), gn_silu_ws_.get(), gn_eps, stream);
    conv::launch_conv_tc(dt, norm_out_.buffer.get(), w_.conv2_w.buffer.get(), h2_.buffer.get(),
                         conv3_ws_.as<float>(), c3, conv3_plan_, stream);
    elementwise::launch_add(dt, x.buffer.get(), h2_.buffer.get(), x1_.buffer.get(), numel, stream);

    // Spatial transformer: p = proj_in(GN(x1)); the NHWC tensor is [rows, C] token-major as it is.
    norm::launch_groupnorm(gn_plan_, x1_.buffer.get(), w_.gnt_gamma.buffer.get(), w_.gnt_beta.buffer.get(),
                           norm_out_.buffer.get(), gn_ws_.get(), gn_eps, stream);
    conv::launch_conv_tc(dt, norm_out_.buffer.get(), w_.proj_in_w.buffer.get(), p_.buffer.get(),
                         conv1_ws_.as<float>(), c1, conv1_plan_, stream);
    // p2 = p + attention(LN1(p)) · Woᵀ
    norm::launch_layernorm(dt, p_.buffer.get(), w_.ln1_gamma.buffer.get(), w_.ln1_beta.buffer.get(),
                           ln_out_.buffer.get(), static_cast<size_t>(rows), C, ln_eps, stream);
    gemm(dt, ln_out_, w_.qkv_w, qkv_, rows, 3 * C, C, stream);
    launch_split_heads(dt, qkv_.buffer.get(), q_.buffer.get(), k_.buffer.get(), v_.buffer.get(), d.B, d.tokens(),
                       d.heads, d.head_dim(), stream);
    attention::launch_flash_attention(dt, q_.buffer.get(), k_.buffer.get(), v_.buffer.get(), o_.buffer.get(),
                                      d.attention(), stream);
    launch_merge_heads(dt, o_.buffer.get(), o_tokens_.buffer.get(), d.B, d.tokens(), d.heads, d.head_dim(), stream);
    gemm(dt, o_tokens_, w_.out_w, a_, rows, C, C, stream);
    elementwise::launch_add(dt, p_.buffer.get(), a_.buffer.get(), p2_.buffer.get(), numel, stream);
    // p3 = p2 + geglu(LN2(p2) · W1ᵀ) · W2ᵀ
    norm::launch_layernorm(dt, p2_.buffer.get(), w_.ln2_gamma.buffer.get(), w_.ln2_beta.buffer.get(),
                           ln_out_.buffer.get(), static_cast<size_t>(rows), C, ln_eps, stream);
    gemm(dt, ln_out_, w_.ff1_w, f_, rows, 2 * inner, C, stream);
    elementwise::launch_geglu(dt, f_.buffer.get(), geglu_out_.buffer.get(), static_cast<size_t>(rows),
                              static_cast<size_t>(inner), stream);
    gemm(dt, geglu_out_, w_.ff2_w, f2_, rows, C, inner, stream);
    elementwise::launch_add(dt, p2_.buffer.get(), f2_.buffer.get(), p3_.buffer.get(), numel, stream);
    // out = x1 + proj_out(p3)
    conv::launch_conv_tc(dt, p3_.buffer.get(), w_.proj_out_w.buffer.get(), po_.buffer.get(), conv1_ws_.as<float>(),
                         c1, conv1_plan_, stream);
    elementwise::launch_add(dt, x1_.buffer.get(), po_.buffer.get(), out.buffer.get(), numel, stream);
  }

  // "Device memory in use is the same across every step", checked inside this process, where
  // other processes (sanitizer shards, ctest -j, a shared runner) cannot disturb it as they did a
  // device-wide cudaMemGetInfo count: each step is captured, not run, into a CUDA graph in
  // thread-local capture mode. A cudaMalloc or cudaFree from this thread (like any call that is
  // unsafe under capture) then fails and invalidates the capture, and a stream-ordered
  // cudaMallocAsync/cudaFreeAsync becomes a memory-allocation/free node of the graph; either is
  // reported with its step. enqueue_step, one step at a time, is what is captured, so that the
  // error names the step. The problem's launch() has run before check(), so lazy module loading
  // and the kernels' one-time setup (shared-memory opt-ins, occupancy caches) are already done
  // and are not mistaken for the step's own calls.
  void verify_memory_stable() const {
    CudaStream stream;
    for (int s = 0; s < dims_.steps; ++s) {
      const CudaGraph graph = capture_step(s, stream.get());
      const MemoryNodes nodes = count_memory_nodes(graph.get());
      if (nodes.total == 0) {
        throw std::runtime_error("sd15_step: the CUDA-graph capture of step " + std::to_string(s) +
                                 " recorded no work: does the step enqueue on the stream it is given?");
      }
      if (nodes.allocs > 0 || nodes.frees > 0) {
        throw std::runtime_error("sd15_step: step " + std::to_string(s) +
                                 " allocates or frees device memory while it runs: its CUDA-graph capture holds " +
                                 std::to_string(nodes.allocs) + " memory-allocation and " +
                                 std::to_string(nodes.frees) +
                                 " memory-free node(s) (stream-ordered cudaMallocAsync/cudaFreeAsync)");
      }
    }
  }

  // Step s captured into a graph (thread-local mode, nothing runs). Whatever enqueue_step does,
  // the capture is ended and what it produced is owned (destroyed with the returned graph or
  // here), the stream is left out of capture mode, and the non-sticky error a failed capture
  // leaves behind is cleared; a failure throws, naming the step and how it was detected.
  CudaGraph capture_step(int s, cudaStream_t stream) const {
    ARCHBENCH_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    std::string failure;
    bool forbidden_call = false;  // a call failed because capture forbids it, or after one had
    try {
      enqueue_step(s, stream);
    } catch (const CudaError& e) {
      failure = e.what();
      const int c = e.code();
      forbidden_call = c == cudaErrorStreamCaptureUnsupported || c == cudaErrorStreamCaptureInvalidated ||
                       c == cudaErrorStreamCaptureImplicit;
    } catch (const std::exception& e) {
      failure = e.what();
    } catch (...) {
      failure = "an unknown exception";
    }
    cudaGraph_t raw = nullptr;
    const cudaError_t end = cudaStreamEndCapture(stream, &raw);
    CudaGraph graph(raw);
    if (failure.empty() && end == cudaSuccess) return graph;

    graph = CudaGraph();
    const cudaError_t last = cudaGetLastError();  // reads and, unless sticky, clears it
    if (is_sticky_error(last)) throw_cuda_error(last, "the failed capture of an sd15_step step", __FILE__, __LINE__);
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    ARCHBENCH_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
    if (status != cudaStreamCaptureStatusNone) {
      throw std::runtime_error("sd15_step: the stream is still capturing after the failed capture of step " +
                               std::to_string(s));
    }
    const std::string step = "sd15_step: step " + std::to_string(s);
    const std::string ended = end == cudaSuccess ? "" : "; cudaStreamEndCapture: " + describe_cuda_error(end);
    if (forbidden_call || failure.empty()) {
      // An ignored error (failure empty) also ends here: the capture was invalidated by a call.
      throw std::runtime_error(
          step + " makes a call that stream capture forbids, detected by capturing the step into a CUDA graph"
                 " in thread-local mode, where cudaMalloc, cudaFree and synchronising calls from this thread fail"
                 " and invalidate the capture: the step allocates, frees or synchronises while it runs (" +
          (failure.empty() ? "its error was ignored" : failure) + ended + ")");
    }
    throw std::runtime_error(step + " failed while being captured into a CUDA graph (thread-local mode): " + failure +
                             ended);
  }

  struct MemoryNodes {
    size_t total = 0, allocs = 0, frees = 0;
  };

  // The nodes of a graph, its child graphs' included, by type.
  static MemoryNodes count_memory_nodes(cudaGraph_t graph) {
    size_t n = 0;
    ARCHBENCH_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &n));
    std::vector<cudaGraphNode_t> nodes(n);
    if (n > 0) ARCHBENCH_CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &n));
    nodes.resize(n);
    MemoryNodes count;
    for (cudaGraphNode_t node : nodes) {
      cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
      ARCHBENCH_CUDA_CHECK(cudaGraphNodeGetType(node, &type));
      ++count.total;
      if (type == cudaGraphNodeTypeMemAlloc) ++count.allocs;
      if (type == cudaGraphNodeTypeMemFree) ++count.frees;
      if (type == cudaGraphNodeTypeGraph) {  // the child graph belongs to its node: not destroyed here
        cudaGraph_t child = nullptr;
        ARCHBENCH_CUDA_CHECK(cudaGraphChildGraphNodeGetGraph(node, &child));
        const MemoryNodes inner = count_memory_nodes(child);
        count.total += inner.total;
        count.allocs += inner.allocs;
        count.frees += inner.frees;
      }
    }
    return count;
  }

  Sd15StepDims dims_;
  DType dtype_;
  std::vector<double> host_x_;  // kept only at the check scale
  Sd15StepWeights host_w_;      // likewise
  std::vector<double> timesteps_;  // [steps, B]
  DeviceTensor x0_, timesteps_dev_;
  DeviceWeights w_;
  DeviceTensor e0_, e1_, e2_, e3_, e4_, temb_;
  DeviceTensor norm_out_, h1_, h1b_, h2_, x1_;
  DeviceTensor p_, ln_out_, qkv_, q_, k_, v_, o_, o_tokens_, a_, p2_, f_, geglu_out_, f2_, p3_, po_;
  DeviceTensor state_[2], y_;
  norm::GroupNormPlan gn_silu_plan_, gn_plan_;
  DeviceBuffer gn_silu_ws_, gn_ws_;
  conv::ConvPlan conv3_plan_, conv1_plan_;
  DeviceBuffer conv3_ws_, conv1_ws_;
};

}  // namespace

double sd15_step_timestep(int step, int sample) { return 961.0 - 40.0 * step + 13.0 * sample; }

std::unique_ptr<Problem> make_sd15_step_problem(const Sd15StepDims& bench, DType dtype, ProblemScale scale,
                                                uint64_t seed) {
  return std::make_unique<Sd15StepProblem>(bench, dtype, scale, seed);
}

}  // namespace archbench::kernels::composite
