// Flux's apply_rope (flux/src/flux/math.py) on q or k: x [batch, heads, tokens, dim], each pair
// (x[2j], x[2j+1]) rotated by the angle of (token, j):
//   y[2j] = cos * x[2j] - sin * x[2j+1],  y[2j+1] = sin * x[2j] + cos * x[2j+1]   (fp32 math)
// rot [tokens, dim/2] holds (cos, sin) as fp32 pairs: Flux's pe (computed once per forward, in
// fp64, stored fp32) without its redundant 2x2 matrix layout; it is shared by every batch row
// and head.
//
// One block per (batch row, token) covers all heads of the token, so the token's rot row (dim/2
// float2, 512 bytes at dim 128) is read once into shared memory and DRAM sees x once, y once and
// the table once; the x packs are loaded before the table so both loads overlap. A scalar
// grid-stride kernel covers shapes the block kernel does not take (odd sizes, unaligned buffers).
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "harness/util/cuda_check.hpp"
#include "kernels/elementwise/elementwise_kernels.hpp"
#include "kernels/common/launch_config.hpp"
#include "kernels/common/vector_io.cuh"

namespace archbench::kernels::elementwise {
namespace {

constexpr int kThreads = 128;
constexpr int kMaxHalfDim = 512;  // the block kernel's shared table row: dim <= 1024

template <typename T, int kPacks>
__global__ void __launch_bounds__(kThreads) rope_tokens(const T* x, const float2* rot, T* y, int heads, int tokens,
                                                        int dim) {
  constexpr int W = Pack<T>::kSize;
  __shared__ float2 angle[kMaxHalfDim];
  const int token = static_cast<int>(blockIdx.x) % tokens, b = static_cast<int>(blockIdx.x) / tokens;
  const int row_packs = dim / W, packs = heads * row_packs;
  // Pack k of this thread: head i / row_packs, packs c of that head's row.
  auto row_of = [&](int i) { return (static_cast<size_t>(b) * heads + i / row_packs) * tokens + token; };

  Pack<T> v[kPacks];
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    const int i = static_cast<int>(threadIdx.x) + k * kThreads;
    if (i < packs) v[k] = load_pack(x + row_of(i) * dim + static_cast<size_t>(i % row_packs) * W);
  }
  const int half = dim / 2;
  for (int j = static_cast<int>(threadIdx.x); j < half; j += kThreads) angle[j] = rot[static_cast<size_t>(token) * half + j];
  __syncthreads();

#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    const int i = static_cast<int>(threadIdx.x) + k * kThreads;
    if (i < packs) {
      const int first_pair = (i % row_packs) * (W / 2);
      Pack<T> out;
#pragma unroll
      for (int e = 0; e < W; e += 2) {
        const float2 cs = angle[first_pair + e / 2];
        const float x0 = element(v[k], e), x1 = element(v[k], e + 1);
        out.v[e] = from_float<T>(cs.x * x0 - cs.y * x1);
        out.v[e + 1] = from_float<T>(cs.y * x0 + cs.x * x1);
      }
      store_pack(y + row_of(i) * dim + static_cast<size_t>(i % row_packs) * W, out);
    }
  }
}

// One thread per pair; the table read as two floats (no alignment needed).
template <typename T>
__global__ void __launch_bounds__(256) rope_generic(const T* x, const float* rot, T* y, size_t rows, int tokens, int dim) {
  const int half = dim / 2;
  const size_t pairs = rows * half, stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t q = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; q < pairs; q += stride) {
    const size_t row = q / half;  // (batch, head, token) row of x
    const int j = static_cast<int>(q % half);
    const size_t angle = (row % tokens) * half + j;
    const float c = rot[2 * angle], s = rot[2 * angle + 1];
    const float x0 = to_float(x[row * dim + 2 * j]), x1 = to_float(x[row * dim + 2 * j + 1]);
    y[row * dim + 2 * j] = from_float<T>(c * x0 - s * x1);
    y[row * dim + 2 * j + 1] = from_float<T>(s * x0 + c * x1);
  }
}

// Which kernel a shape takes: 4 or 8 packs per thread in the block kernel, 0 for the scalar one.
template <typename T>
int rope_packs_per_thread(int heads, int dim, bool aligned) {
  constexpr int W = Pack<T>::kSize;
  if (!aligned || dim % W != 0 || dim / 2 > kMaxHalfDim) return 0;
  const long packs = static_cast<long>(heads) * (dim / W);
  if (packs <= 4L * kThreads) return 4;
  if (packs <= 8L * kThreads) return 8;
  return 0;
}

}  // namespace

void launch_rope(DType dtype, const void* x, const float* rot, void* y, int batch, int heads, int tokens, int dim,
                 cudaStream_t stream) {
  if (batch <= 0 || heads <= 0 || tokens <= 0 || dim <= 0 || dim % 2 != 0) {
    throw std::invalid_argument("rope: needs positive batch, heads, tokens and an even head dim");
  }
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto* xt = static_cast<const T*>(x);
    auto* yt = static_cast<T*>(y);
    const bool aligned = all_aligned16(x, y) && reinterpret_cast<uintptr_t>(rot) % 8 == 0;
    const auto grid = static_cast<unsigned>(static_cast<size_t>(batch) * tokens);
    const auto* rot2 = reinterpret_cast<const float2*>(rot);
    switch (rope_packs_per_thread<T>(heads, dim, aligned)) {
      case 4: rope_tokens<T, 4><<<grid, kThreads, 0, stream>>>(xt, rot2, yt, heads, tokens, dim); break;
      case 8: rope_tokens<T, 8><<<grid, kThreads, 0, stream>>>(xt, rot2, yt, heads, tokens, dim); break;
      default: {
        const size_t rows = static_cast<size_t>(batch) * heads * tokens;
        const int per_sm = resident_blocks_per_sm(reinterpret_cast<const void*>(&rope_generic<T>), 256);
        rope_generic<T><<<grid_stride_blocks(rows * (dim / 2), 256, per_sm), 256, 0, stream>>>(xt, rot, yt, rows, tokens,
                                                                                               dim);
      }
    }
  });
  ARCHBENCH_CHECK_LAUNCH();
}

const void* rope_kernel(DType dtype, int heads, int dim) {
  const void* k = nullptr;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    switch (rope_packs_per_thread<T>(heads, dim, true)) {
      case 4: k = reinterpret_cast<const void*>(&rope_tokens<T, 4>); break;
      case 8: k = reinterpret_cast<const void*>(&rope_tokens<T, 8>); break;
      default: k = reinterpret_cast<const void*>(&rope_generic<T>);
    }
  });
  return k;
}

}  // namespace archbench::kernels::elementwise
