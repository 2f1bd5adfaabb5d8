// Holds a stream's GPU work back until the host has enqueued a whole sample, as nvbench's blocking
// kernel does. Without it the start event fires as soon as the GPU reaches it, and the host time
// of the call being timed (a library's argument checks, heuristics, its launch) lands between the
// events whenever it outlasts the work queued ahead (docs/measurement.md, "Timing").
#pragma once

#include <cuda_runtime.h>

namespace archbench {

class GpuHold {
 public:
  // timeout_ms: how long the GPU waits for release() before it goes on alone (a call that
  // synchronizes inside the timed region would otherwise wait on itself).
  explicit GpuHold(double timeout_ms = 20.0);
  ~GpuHold();
  GpuHold(const GpuHold&) = delete;
  GpuHold& operator=(const GpuHold&) = delete;

  // Enqueues the waiting kernel on `stream`; everything queued after it waits for release().
  void hold(cudaStream_t stream);
  void release();
  // After the stream has passed the hold: whether it ended by timeout instead of release().
  [[nodiscard]] bool timed_out() const;

 private:
  volatile int* host_ = nullptr;  // [0] release flag, [1] timed-out flag; pinned and mapped
  int* device_ = nullptr;
  long long timeout_ns_ = 0;
};

}  // namespace archbench
