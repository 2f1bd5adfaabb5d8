#include "kernels/common/launch_config.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <tuple>

#include "harness/util/cuda_check.hpp"

namespace archbench::kernels {

int current_sm_count() {
  static std::array<std::atomic<int>, 64> cache{};  // per device id; 0 = not read yet
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  const auto slot = static_cast<size_t>(device);
  if (slot < cache.size()) {
    if (const int known = cache[slot].load(std::memory_order_relaxed); known > 0) return known;
  }
  int sms = 0;
  ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  sms = std::max(sms, 1);
  if (slot < cache.size()) cache[slot].store(sms, std::memory_order_relaxed);
  return sms;
}

int resident_blocks_per_sm(const void* kernel, int threads, size_t smem) {
  using Key = std::tuple<int, const void*, int, size_t>;
  static std::mutex mutex;
  static std::map<Key, int> cache;
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  const Key key{device, kernel, threads, smem};
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  int blocks = 0;
  ARCHBENCH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem));
  blocks = std::max(blocks, 1);
  const std::lock_guard<std::mutex> lock(mutex);
  cache[key] = blocks;
  return blocks;
}

unsigned grid_stride_blocks(size_t items, size_t items_per_block, int blocks_per_sm) {
  const size_t needed = std::max<size_t>((items + items_per_block - 1) / items_per_block, 1);
  const size_t wave = static_cast<size_t>(current_sm_count()) * static_cast<size_t>(std::max(blocks_per_sm, 1));
  return static_cast<unsigned>(std::min(needed, wave));
}

}  // namespace archbench::kernels
