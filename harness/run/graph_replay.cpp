#include "harness/run/graph_replay.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "harness/util/cuda_check.hpp"
#include "harness/util/cuda_raii.hpp"

namespace archbench {
namespace {

// A thread-local capture on `stream` for the lifetime of the scope: the destructor ends a capture
// still in progress (whatever threw), so the stream never stays in capture mode.
class CaptureScope {
 public:
  explicit CaptureScope(cudaStream_t stream)
      : stream_(stream), begin_(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal)),
        active_(begin_ == cudaSuccess) {}
  ~CaptureScope() {
    if (!active_) return;
    cudaGraph_t g = nullptr;
    if (cudaStreamEndCapture(stream_, &g) == cudaSuccess && g != nullptr) cudaGraphDestroy(g);
  }
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;

  [[nodiscard]] cudaError_t begin_status() const { return begin_; }

  // Ends the capture; `graph` owns what it produced (nothing when the capture was invalidated).
  [[nodiscard]] cudaError_t end(CudaGraph& graph) {
    active_ = false;
    cudaGraph_t g = nullptr;
    const cudaError_t e = cudaStreamEndCapture(stream_, &g);
    graph = CudaGraph(g);
    return e;
  }

 private:
  cudaStream_t stream_;
  cudaError_t begin_;
  bool active_;
};

// After a failed capture, instantiation or replay: the error it left is cleared, unless it is
// sticky (the context is lost, no fallback can run), and the stream must be usable again.
void recover_stream(cudaStream_t stream, const char* after) {
  const cudaError_t last = cudaGetLastError();  // reads and, when not sticky, clears it
  if (is_sticky_error(last)) throw_cuda_error(last, after, __FILE__, __LINE__);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  ARCHBENCH_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  if (status != cudaStreamCaptureStatusNone) {
    throw std::runtime_error(std::string("the timing stream is still capturing after ") + after);
  }
  ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
}

// `batch` launches captured into `exec` and replayed once; the reason when that failed.
std::string make_replayable(const LaunchFn& launch, cudaStream_t stream, int batch, CudaGraphExec& exec) {
  CudaGraph graph;
  std::string failure;
  {
    CaptureScope capture(stream);
    if (capture.begin_status() != cudaSuccess) {
      failure = "cudaStreamBeginCapture: " + describe_cuda_error(capture.begin_status());
    } else {
      try {
        for (int i = 0; i < batch; ++i) launch(stream);
      } catch (const std::exception& e) {
        failure = std::string("a launch failed under stream capture: ") + e.what();
      }
      const cudaError_t end = capture.end(graph);
      if (failure.empty() && end != cudaSuccess) failure = "cudaStreamEndCapture: " + describe_cuda_error(end);
    }
  }
  if (!failure.empty()) {
    recover_stream(stream, "the failed capture");
    return failure;
  }
  size_t nodes = 0;
  if (const cudaError_t e = cudaGraphGetNodes(graph.get(), nullptr, &nodes); e != cudaSuccess) {
    recover_stream(stream, "cudaGraphGetNodes");
    return "cudaGraphGetNodes: " + describe_cuda_error(e);
  }
  if (nodes == 0) return "the capture recorded no work on the timing stream (does launch use the stream it is given?)";

  cudaGraphExec_t instantiated = nullptr;
  const cudaError_t inst = cudaGraphInstantiate(&instantiated, graph.get(), 0);
  exec = CudaGraphExec(instantiated);
  if (inst != cudaSuccess) {
    exec = CudaGraphExec();
    recover_stream(stream, "cudaGraphInstantiate");
    return "cudaGraphInstantiate: " + describe_cuda_error(inst);
  }
  // One replay before any timing (it also uploads the graph): a replay error that leaves the
  // context usable falls back too.
  cudaError_t replay = cudaGraphLaunch(exec.get(), stream);
  if (replay == cudaSuccess) replay = cudaStreamSynchronize(stream);
  if (replay != cudaSuccess) {
    if (is_sticky_error(replay)) throw_cuda_error(replay, "the first graph replay", __FILE__, __LINE__);
    exec = CudaGraphExec();
    recover_stream(stream, "the first graph replay");
    return "cudaGraphLaunch: " + describe_cuda_error(replay);
  }
  return {};
}

}  // namespace

int graph_batch_for(double launch_ms) {
  if (!(launch_ms > 0)) return kGraphMaxBatch;  // unknown: not positive, or NaN
  // The small slack keeps an exact quotient (0.2 / 0.02) from rounding up to one launch more.
  const double launches = std::ceil(kGraphReplayTargetMs / launch_ms - 1e-9);
  return static_cast<int>(std::clamp(launches, 1.0, static_cast<double>(kGraphMaxBatch)));
}

bool graph_replay_wanted(CudaGraphMode mode, double pilot_median_ms) {
  switch (mode) {
    case CudaGraphMode::Off: return false;
    case CudaGraphMode::All: return true;
    case CudaGraphMode::Auto: return pilot_median_ms < kGraphAutoThresholdMs;  // false for NaN
  }
  return false;
}

TimingResult time_graph_replays(const LaunchFn& launch, cudaStream_t stream, const TimerConfig& cfg, size_t l2_bytes,
                                int batch) {
  if (batch < 1 || batch > kGraphMaxBatch) {
    throw std::invalid_argument("graph batch " + std::to_string(batch) + " outside [1, " +
                                std::to_string(kGraphMaxBatch) + "]");
  }
  // One plain launch first, so that lazy work (module loading, library handles and plans) is
  // done before the capture, where it may not be allowed.
  launch(stream);
  ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));

  CudaGraphExec exec;
  if (std::string failure = make_replayable(launch, stream, batch, exec); !failure.empty()) {
    TimingResult t = time_launches(launch, stream, cfg, l2_bytes);
    t.graph_fallback = std::move(failure);
    return t;
  }
  SampleTimer timer(l2_bytes, cfg.cold_l2);
  const LaunchFn replay = [&exec](cudaStream_t s) { ARCHBENCH_CUDA_CHECK(cudaGraphLaunch(exec.get(), s)); };
  TimingResult t = time_samples(
      [&] {
        replay(stream);
        ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
      },
      [&] { return timer.sample_ms(replay, stream) / batch; }, cfg);
  t.mode = LaunchMode::Graph;
  t.graph_batch = batch;
  t.hold_fallback = timer.hold_fallback();
  return t;
}

}  // namespace archbench
