// Its own translation unit: .cu files build as C++17 and must not include the C++20 harness headers.
#include "harness/run/gpu_hold.hpp"

#include "harness/util/cuda_check.hpp"

namespace archbench {
namespace {

__device__ long long global_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread polls the host's flag through mapped memory; the volatile read goes to the host
// each time, so the store of release() is seen within a microsecond or so.
__global__ void wait_for_release(volatile int* flags, long long timeout_ns) {
  const long long start = global_ns();
  while (flags[0] == 0) {
    if (global_ns() - start > timeout_ns) {
      flags[1] = 1;
      return;
    }
  }
}

}  // namespace

GpuHold::GpuHold(double timeout_ms) : timeout_ns_(static_cast<long long>(timeout_ms * 1e6)) {
  void* p = nullptr;
  ARCHBENCH_CUDA_CHECK(cudaHostAlloc(&p, 2 * sizeof(int), cudaHostAllocMapped));
  host_ = static_cast<volatile int*>(p);
  host_[0] = 1;
  host_[1] = 0;
  ARCHBENCH_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), p, 0));
}

GpuHold::~GpuHold() {
  if (host_ != nullptr) {
    host_[0] = 1;  // never leave a kernel waiting on memory about to be freed
    (void)cudaFreeHost(const_cast<int*>(host_));
  }
}

void GpuHold::hold(cudaStream_t stream) {
  host_[0] = 0;
  host_[1] = 0;
  wait_for_release<<<1, 1, 0, stream>>>(device_, timeout_ns_);
  ARCHBENCH_CHECK_LAUNCH();
}

void GpuHold::release() {
  __sync_synchronize();  // the enqueues before are done; the flag's store goes out after them
  host_[0] = 1;
}

bool GpuHold::timed_out() const { return host_[1] != 0; }

}  // namespace archbench
