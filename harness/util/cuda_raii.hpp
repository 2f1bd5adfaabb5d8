// RAII owners for CUDA resources, so operator code never pairs cudaMalloc with cudaFree.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "harness/util/cuda_check.hpp"

namespace archbench {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
    if (bytes > 0) ARCHBENCH_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  [[nodiscard]] void* get() const { return ptr_; }
  template <typename T>
  [[nodiscard]] T* as() const { return static_cast<T*>(ptr_); }
  [[nodiscard]] size_t bytes() const { return bytes_; }

 private:
  void reset() {
    if (ptr_ != nullptr) cudaFree(ptr_);  // cannot throw from a destructor; a failed free is not actionable
    ptr_ = nullptr;
  }
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

class CudaStream {
 public:
  CudaStream() { ARCHBENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~CudaStream() { cudaStreamDestroy(s_); }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  [[nodiscard]] cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class CudaEvent {
 public:
  CudaEvent() { ARCHBENCH_CUDA_CHECK(cudaEventCreate(&e_)); }
  ~CudaEvent() { cudaEventDestroy(e_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  [[nodiscard]] cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

// An owned CUDA graph (from stream capture) and an owned executable graph; either may be empty.
class CudaGraph {
 public:
  CudaGraph() = default;
  explicit CudaGraph(cudaGraph_t adopted) : g_(adopted) {}
  ~CudaGraph() { reset(); }
  CudaGraph(CudaGraph&& o) noexcept : g_(std::exchange(o.g_, nullptr)) {}
  CudaGraph& operator=(CudaGraph&& o) noexcept {
    if (this != &o) {
      reset();
      g_ = std::exchange(o.g_, nullptr);
    }
    return *this;
  }
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;
  [[nodiscard]] cudaGraph_t get() const { return g_; }

 private:
  void reset() {
    if (g_ != nullptr) cudaGraphDestroy(g_);  // cannot throw from a destructor
    g_ = nullptr;
  }
  cudaGraph_t g_ = nullptr;
};

class CudaGraphExec {
 public:
  CudaGraphExec() = default;
  explicit CudaGraphExec(cudaGraphExec_t adopted) : e_(adopted) {}
  ~CudaGraphExec() { reset(); }
  CudaGraphExec(CudaGraphExec&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  CudaGraphExec& operator=(CudaGraphExec&& o) noexcept {
    if (this != &o) {
      reset();
      e_ = std::exchange(o.e_, nullptr);
    }
    return *this;
  }
  CudaGraphExec(const CudaGraphExec&) = delete;
  CudaGraphExec& operator=(const CudaGraphExec&) = delete;
  [[nodiscard]] cudaGraphExec_t get() const { return e_; }

 private:
  void reset() {
    if (e_ != nullptr) cudaGraphExecDestroy(e_);  // cannot throw from a destructor
    e_ = nullptr;
  }
  cudaGraphExec_t e_ = nullptr;
};

}  // namespace archbench
