#include "kernels/common/shared_memory_opt_in.hpp"

#include <cuda_runtime.h>

#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "harness/util/cuda_check.hpp"

namespace archbench::kernels {

int shared_memory_per_block_limit() {
  int device = 0;
  int allowed = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&allowed, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return allowed;
}

void opt_in_dynamic_shared_memory(const void* kernel, int bytes, const char* what) {
  if (bytes <= 48 * 1024) return;  // the default limit covers it
  static std::mutex mutex;
  static std::set<std::pair<const void*, int>> done;  // (kernel, device)
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  if (done.contains({kernel, device})) return;
  // Say what is missing in words rather than as cudaErrorInvalidValue (for example on CC 8.6 / 8.9,
  // which allow 99 KiB per block where 8.0 allows 163 KiB and 9.0 227 KiB).
  const int allowed = shared_memory_per_block_limit();
  if (bytes > allowed) {
    throw std::runtime_error(std::string(what) + " needs " + std::to_string(bytes) +
                             " bytes of shared memory per block; device " + std::to_string(device) + " allows " +
                             std::to_string(allowed));
  }
  ARCHBENCH_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  done.insert({kernel, device});
}

}  // namespace archbench::kernels
