// The composite's glue kernels (composite_kernels.hpp): one thread per element in a grid-stride
// loop. They move a few MB per step next to GEMMs and convolutions of GFLOPs, so they are kept
// simple; the index arithmetic is the whole point and is checked by the composite's reference.
#include <cstddef>
#include <stdexcept>
#include <string>

#include "harness/util/cuda_check.hpp"
#include "kernels/common/convert.cuh"
#include "kernels/composite/composite_kernels.hpp"

namespace archbench::kernels::composite {
namespace {

constexpr int kThreads = 256;
constexpr size_t kMaxBlocks = 65535;  // a grid-stride loop covers the rest

unsigned blocks_for(size_t n) {
  const size_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

__device__ __forceinline__ size_t first_index() { return static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x; }
__device__ __forceinline__ size_t grid_stride() { return static_cast<size_t>(gridDim.x) * kThreads; }

template <typename T>
__global__ void __launch_bounds__(kThreads)
    add_channel_vector(const T* h, const T* v, T* y, size_t total, size_t per_sample, size_t channels) {
  for (size_t i = first_index(); i < total; i += grid_stride()) {
    const size_t b = i / per_sample, c = i % channels;
    y[i] = from_float<T>(to_float(h[i]) + to_float(v[b * channels + c]));
  }
}

// i runs over qkv [b][n][which][h][j] (contiguous reads); each element goes to part `which` at [b][h][n][j].
template <typename T>
__global__ void __launch_bounds__(kThreads)
    split_heads(const T* qkv, T* q, T* k, T* v, size_t total, size_t tokens, size_t heads, size_t head_dim) {
  for (size_t i = first_index(); i < total; i += grid_stride()) {
    const size_t j = i % head_dim;
    size_t r = i / head_dim;
    const size_t h = r % heads;
    r /= heads;
    const size_t which = r % 3;
    r /= 3;
    const size_t n = r % tokens, b = r / tokens;
    T* part = which == 0 ? q : (which == 1 ? k : v);
    part[((b * heads + h) * tokens + n) * head_dim + j] = qkv[i];
  }
}

// i runs over y [b][n][h][j] (contiguous writes), read from o [b][h][n][j].
template <typename T>
__global__ void __launch_bounds__(kThreads)
    merge_heads(const T* o, T* y, size_t total, size_t tokens, size_t heads, size_t head_dim) {
  for (size_t i = first_index(); i < total; i += grid_stride()) {
    const size_t j = i % head_dim;
    size_t r = i / head_dim;
    const size_t h = r % heads;
    r /= heads;
    const size_t n = r % tokens, b = r / tokens;
    y[i] = o[((b * heads + h) * tokens + n) * head_dim + j];
  }
}

void require_positive(const char* fn, long long a, long long b, long long c, long long d = 1) {
  if (a <= 0 || b <= 0 || c <= 0 || d <= 0) throw std::invalid_argument(std::string(fn) + ": sizes must be positive");
}

}  // namespace

void launch_add_channel_vector(DType dtype, const void* h, const void* v, void* y, int batch, int pixels,
                               int channels, cudaStream_t stream) {
  require_positive("launch_add_channel_vector", batch, pixels, channels);
  const size_t per_sample = static_cast<size_t>(pixels) * static_cast<size_t>(channels);
  const size_t total = static_cast<size_t>(batch) * per_sample;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    add_channel_vector<T><<<blocks_for(total), kThreads, 0, stream>>>(
        static_cast<const T*>(h), static_cast<const T*>(v), static_cast<T*>(y), total, per_sample,
        static_cast<size_t>(channels));
  });
  ARCHBENCH_CHECK_LAUNCH();
}

void launch_split_heads(DType dtype, const void* qkv, void* q, void* k, void* v, int batch, int tokens, int heads,
                        int head_dim, cudaStream_t stream) {
  require_positive("launch_split_heads", batch, tokens, heads, head_dim);
  const size_t total = static_cast<size_t>(batch) * static_cast<size_t>(tokens) * 3 * static_cast<size_t>(heads) *
                       static_cast<size_t>(head_dim);
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    split_heads<T><<<blocks_for(total), kThreads, 0, stream>>>(
        static_cast<const T*>(qkv), static_cast<T*>(q), static_cast<T*>(k), static_cast<T*>(v), total,
        static_cast<size_t>(tokens), static_cast<size_t>(heads), static_cast<size_t>(head_dim));
  });
  ARCHBENCH_CHECK_LAUNCH();
}

void launch_merge_heads(DType dtype, const void* o, void* y, int batch, int tokens, int heads, int head_dim,
                        cudaStream_t stream) {
  require_positive("launch_merge_heads", batch, tokens, heads, head_dim);
  const size_t total =
      static_cast<size_t>(batch) * static_cast<size_t>(tokens) * static_cast<size_t>(heads) * static_cast<size_t>(head_dim);
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    merge_heads<T><<<blocks_for(total), kThreads, 0, stream>>>(static_cast<const T*>(o), static_cast<T*>(y), total,
                                                                static_cast<size_t>(tokens),
                                                                static_cast<size_t>(heads),
                                                                static_cast<size_t>(head_dim));
  });
  ARCHBENCH_CHECK_LAUNCH();
}

const void* add_channel_vector_kernel(DType dtype) {
  return storage_kernel(dtype, [](auto tag) { return &add_channel_vector<decltype(tag)>; });
}

const void* split_heads_kernel(DType dtype) {
  return storage_kernel(dtype, [](auto tag) { return &split_heads<decltype(tag)>; });
}

const void* merge_heads_kernel(DType dtype) {
  return storage_kernel(dtype, [](auto tag) { return &merge_heads<decltype(tag)>; });
}

}  // namespace archbench::kernels::composite
