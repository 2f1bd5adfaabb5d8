// Nearest 2x upsample in NCHW (F.interpolate(scale_factor=2, mode="nearest")): y[p, 2i+dy, 2j+dx]
// = x[p, i, j] over planes p = (n, c). Output row pair (2r, 2r+1) repeats input row r = p*h + i,
// so a thread reads one 16-byte pack of an input row and writes the 2W elements it expands to,
// twice: four 16-byte stores. A scalar loop over the output covers rows that are not a whole
// number of packs and unaligned buffers.
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
constexpr int kUnroll = 2;

template <typename T, typename Index>
__device__ __forceinline__ void upsample_packs(const T* x, T* y, Index in_rows, Index w) {
  constexpr int W = Pack<T>::kSize;
  const Index row_packs = w / W;
  Pack<T> v[kUnroll];
  unrolled_grid_stride<kThreads, kUnroll>(
      in_rows * row_packs,
      [&](int u, Index p) { v[u] = load_pack(x + static_cast<size_t>(p) * W); },  // input rows are contiguous packs
      [&](int u, Index p) {
        const Index r = p / row_packs, c = p - r * row_packs;
        Pack<T> left, right;  // output columns 2cW .. 2cW + W - 1 and the next W
#pragma unroll
        for (int e = 0; e < W / 2; ++e) {
          left.v[2 * e] = left.v[2 * e + 1] = v[u].v[e];
          right.v[2 * e] = right.v[2 * e + 1] = v[u].v[W / 2 + e];
        }
        const size_t out_w = 2 * static_cast<size_t>(w);
        T* top = y + 2 * static_cast<size_t>(r) * out_w + 2 * static_cast<size_t>(c) * W;
        store_pack(top, left);
        store_pack(top + W, right);
        store_pack(top + out_w, left);
        store_pack(top + out_w + W, right);
      });
}

template <typename T>
__global__ void __launch_bounds__(kThreads) upsample_nearest2x(const T* x, T* y, size_t planes, int h, int w,
                                                               bool vectorized) {
  const size_t in_rows = planes * static_cast<size_t>(h);
  if (vectorized) {
    if (in_rows * static_cast<size_t>(w) <= (UINT32_MAX >> 1)) {
      upsample_packs<T, uint32_t>(x, y, static_cast<uint32_t>(in_rows), static_cast<uint32_t>(w));
    } else {
      upsample_packs<T, uint64_t>(x, y, in_rows, static_cast<uint64_t>(w));
    }
    return;
  }
  const size_t out_w = 2 * static_cast<size_t>(w), n = 2 * in_rows * out_w;
  const size_t stride = static_cast<size_t>(gridDim.x) * kThreads;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride) {
    const size_t out_row = i / out_w, ox = i % out_w;
    y[i] = x[(out_row / 2) * w + ox / 2];  // out_row / 2 = the input row p*h + i
  }
}

}  // namespace

void launch_upsample_nearest2x(DType dtype, const void* x, void* y, size_t planes, int h, int w, cudaStream_t stream) {
  if (planes == 0 || h <= 0 || w <= 0) return;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    constexpr int W = Pack<T>::kSize;
    const size_t in_elems = planes * static_cast<size_t>(h) * static_cast<size_t>(w);
    const bool vectorized = w % W == 0 && all_aligned16(x, y);
    const int per_sm = resident_blocks_per_sm(reinterpret_cast<const void*>(&upsample_nearest2x<T>), kThreads);
    const unsigned grid = vectorized ? grid_stride_blocks(in_elems / W, kThreads * kUnroll, per_sm)
                                     : grid_stride_blocks(4 * in_elems, kThreads, per_sm);
    upsample_nearest2x<T><<<grid, kThreads, 0, stream>>>(static_cast<const T*>(x), static_cast<T*>(y), planes, h, w,
                                                         vectorized);
  });
  ARCHBENCH_CHECK_LAUNCH();
}

const void* upsample_kernel(DType dtype) {
  return storage_kernel(dtype, [](auto tag) { return &upsample_nearest2x<decltype(tag)>; });
}

}  // namespace archbench::kernels::elementwise
