// The cuBLAS and cuDNN handles: one per thread and device, created on first use and destroyed
// when the thread ends. A handle belongs to the device current when it was created, and the
// libraries do not allow one handle to be used by two threads at once.
#pragma once

#include <map>
#include <memory>

#include "harness/util/cuda_check.hpp"

namespace archbench {

// The calling thread's handle (Context*) for the current device. create(&handle) makes a new one
// (and throws on failure); kDestroy releases it.
template <typename Context, auto kDestroy, typename Create>
[[nodiscard]] Context* thread_device_handle(Create&& create) {
  struct Deleter {
    void operator()(Context* h) const { kDestroy(h); }
  };
  thread_local std::map<int, std::unique_ptr<Context, Deleter>> handles;
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  auto& h = handles[device];
  if (!h) {
    Context* raw = nullptr;
    create(&raw);
    h.reset(raw);
  }
  return h.get();
}

}  // namespace archbench
