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

// An owned CUDA handle that may be empty, released by `Destroy` (whose status nobody could act on
// in a destructor). Used for what stream capture hands over (a graph and its executable form),
// and under the streams and events created below.
template <typename Handle, auto Destroy>
class CudaHandle {
 public:
  CudaHandle() = default;
  explicit CudaHandle(Handle adopted) : h_(adopted) {}
  ~CudaHandle() { reset(); }
  CudaHandle(CudaHandle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  CudaHandle& operator=(CudaHandle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  CudaHandle(const CudaHandle&) = delete;
  CudaHandle& operator=(const CudaHandle&) = delete;
  [[nodiscard]] Handle get() const { return h_; }

 protected:
  Handle h_ = nullptr;  // a derived owner's constructor creates into it

 private:
  void reset() {
    if (h_ != nullptr) (void)Destroy(h_);
    h_ = nullptr;
  }
};

using CudaGraph = CudaHandle<cudaGraph_t, &cudaGraphDestroy>;
using CudaGraphExec = CudaHandle<cudaGraphExec_t, &cudaGraphExecDestroy>;

// A new non-blocking stream, owned.
class CudaStream final : public CudaHandle<cudaStream_t, &cudaStreamDestroy> {
 public:
  CudaStream() { ARCHBENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&h_, cudaStreamNonBlocking)); }
};

// A new event, owned.
class CudaEvent final : public CudaHandle<cudaEvent_t, &cudaEventDestroy> {
 public:
  CudaEvent() { ARCHBENCH_CUDA_CHECK(cudaEventCreate(&h_)); }
};

}  // namespace archbench
