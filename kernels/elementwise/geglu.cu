// GEGLU (diffusers' chunk order): x [rows, 2 * cols] = [hidden | gate] -> y [rows, cols] =
// hidden * gelu_erf(gate). Each thread takes 16-byte packs of y and reads the matching packs of
// hidden and gate (both rows are contiguous), kUnroll packs per pass with all loads first; a
// scalar loop covers rows whose length is not a whole number of packs or unaligned buffers.
#include <cstddef>
#include <cstdint>

#include "harness/util/cuda_check.hpp"
#include "kernels/elementwise/elementwise_kernels.hpp"
#include "kernels/common/launch_config.hpp"
#include "kernels/common/unrolled_grid_stride.cuh"
#include "kernels/common/vector_io.cuh"

namespace archbench::kernels::elementwise {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;

__device__ __forceinline__ float gelu_erf(float v) { return 0.5f * v * (1.0f + erff(v * 0.7071067811865476f)); }

// The pack loop with a given index width: a 32-bit division per pack where the element count
// stays below 2^31 (so that no index, plus one pass, can wrap), 64-bit otherwise.
template <typename T, typename Index>
__device__ __forceinline__ void geglu_packs(const T* x, T* y, Index rows, Index cols) {
  constexpr int W = Pack<T>::kSize;
  const Index row_packs = cols / W;
  Pack<T> hidden[kUnroll], gate[kUnroll];
  unrolled_grid_stride<kThreads, kUnroll>(
      rows * row_packs,
      [&](int u, Index p) {
        const Index r = p / row_packs, c = p - r * row_packs;
        const T* h = x + static_cast<size_t>(r) * 2 * cols + static_cast<size_t>(c) * W;
        hidden[u] = load_pack(h);
        gate[u] = load_pack(h + cols);
      },
      [&](int u, Index p) {
        Pack<T> out;
#pragma unroll
        for (int e = 0; e < W; ++e) out.v[e] = from_float<T>(element(hidden[u], e) * gelu_erf(element(gate[u], e)));
        store_pack(y + static_cast<size_t>(p) * W, out);
      });
}

template <typename T>
__global__ void __launch_bounds__(kThreads) geglu(const T* x, T* y, size_t rows, size_t cols, bool vectorized) {
  if (vectorized) {
    if (rows * cols <= (UINT32_MAX >> 1)) {
      geglu_packs<T, uint32_t>(x, y, static_cast<uint32_t>(rows), static_cast<uint32_t>(cols));
    } else {
      geglu_packs<T, uint64_t>(x, y, rows, cols);
    }
    return;
  }
  const size_t n = rows * cols, stride = static_cast<size_t>(gridDim.x) * kThreads;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride) {
    const size_t r = i / cols, c = i % cols;
    y[i] = from_float<T>(to_float(x[r * 2 * cols + c]) * gelu_erf(to_float(x[r * 2 * cols + cols + c])));
  }
}

}  // namespace

void launch_geglu(DType dtype, const void* x, void* y, size_t rows, size_t cols, cudaStream_t stream) {
  if (rows * cols == 0) return;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    constexpr int W = Pack<T>::kSize;
    const bool vectorized = cols % W == 0 && all_aligned16(x, y);
    const int per_sm = resident_blocks_per_sm(reinterpret_cast<const void*>(&geglu<T>), kThreads);
    const unsigned grid = vectorized ? grid_stride_blocks(rows * cols / W, kThreads * kUnroll, per_sm)
                                     : grid_stride_blocks(rows * cols, kThreads, per_sm);
    geglu<T><<<grid, kThreads, 0, stream>>>(static_cast<const T*>(x), static_cast<T*>(y), rows, cols, vectorized);
  });
  ARCHBENCH_CHECK_LAUNCH();
}

const void* geglu_kernel(DType dtype) {
  return storage_kernel(dtype, [](auto tag) { return &geglu<decltype(tag)>; });
}

}  // namespace archbench::kernels::elementwise
