// LayerNorm over the last dim: y = (x - mean) / sqrt(var + eps) [* gamma + beta], fp32 statistics.
//
// Single pass over DRAM: a row is loaded once, in 16-byte packs, into registers; mean and the
// centered variance are two passes over those registers (no E[x^2] - E[x]^2 cancellation), and
// the row is written once. Rows of up to 128 packs (SD1.5's 320: 1.25 KB in fp32) take one warp
// each, 8 rows per block, so every row of [8192, 320] is in flight in one wave; longer rows (Flux's
// 3072) take a block of 128 threads each. Rows that are not a whole number of packs, unaligned
// buffers or rows beyond 1024 packs use a generic block-per-row kernel that reads the row three
// times.
#include <cstddef>
#include <stdexcept>

#include "harness/util/cuda_check.hpp"
#include "kernels/common/vector_io.cuh"
#include "kernels/norm/norm_kernels.hpp"
#include "kernels/norm/reduce.cuh"

namespace archbench::kernels::norm {
namespace {

constexpr int kWarpRowThreads = 256;  // 8 rows per block
constexpr int kBlockRowThreads = 128;
constexpr int kGenericThreads = 256;

// Normalizes the packs p = first + k * step (k < kPacks, p < packs) of one row held in v.
template <typename T, bool kAffine, int kPacks>
__device__ __forceinline__ void store_normalized(const Pack<T> (&v)[kPacks], int first, int step, int packs,
                                                 float mean, float rstd, const T* gamma, const T* beta, T* out) {
  constexpr int W = Pack<T>::kSize;
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    const int p = first + k * step;
    if (p < packs) {
      Pack<T> r;
      if constexpr (kAffine) {
        const Pack<T> g = load_pack(gamma + p * W), b = load_pack(beta + p * W);
#pragma unroll
        for (int e = 0; e < W; ++e) r.v[e] = from_float<T>((element(v[k], e) - mean) * rstd * element(g, e) + element(b, e));
      } else {
#pragma unroll
        for (int e = 0; e < W; ++e) r.v[e] = from_float<T>((element(v[k], e) - mean) * rstd);
      }
      store_pack(out + static_cast<size_t>(p) * W, r);
    }
  }
}

template <typename T, int kPacks>
__device__ __forceinline__ float packs_sum(const Pack<T> (&v)[kPacks], int first, int step, int packs) {
  float s = 0;
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    if (first + k * step < packs) {
#pragma unroll
      for (int e = 0; e < Pack<T>::kSize; ++e) s += element(v[k], e);
    }
  }
  return s;
}

template <typename T, int kPacks>
__device__ __forceinline__ float packs_centered_squares(const Pack<T> (&v)[kPacks], int first, int step, int packs,
                                                        float mean) {
  float s = 0;
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    if (first + k * step < packs) {
#pragma unroll
      for (int e = 0; e < Pack<T>::kSize; ++e) {
        const float d = element(v[k], e) - mean;
        s += d * d;
      }
    }
  }
  return s;
}

// One warp per row of up to 32 * kPacks packs.
template <typename T, bool kAffine, int kPacks>
__global__ void __launch_bounds__(kWarpRowThreads) layernorm_warp_rows(const T* x, const T* gamma, const T* beta, T* y,
                                                                       size_t rows, int cols, float eps) {
  constexpr int W = Pack<T>::kSize;
  const size_t row = static_cast<size_t>(blockIdx.x) * (kWarpRowThreads / 32) + threadIdx.x / 32;
  if (row >= rows) return;  // the whole warp leaves together, before any shuffle
  const int lane = static_cast<int>(threadIdx.x % 32), packs = cols / W;
  const T* in = x + row * cols;
  Pack<T> v[kPacks];
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    if (lane + 32 * k < packs) v[k] = load_pack(in + (lane + 32 * k) * W);
  }
  const float mean = lane_group_sum(packs_sum(v, lane, 32, packs)) / static_cast<float>(cols);
  const float var = lane_group_sum(packs_centered_squares(v, lane, 32, packs, mean)) / static_cast<float>(cols);
  store_normalized<T, kAffine>(v, lane, 32, packs, mean, rsqrtf(var + eps), gamma, beta, y + row * cols);
}

// One block of kBlockRowThreads per row of up to kBlockRowThreads * kPacks packs.
template <typename T, bool kAffine, int kPacks>
__global__ void __launch_bounds__(kBlockRowThreads) layernorm_block_rows(const T* x, const T* gamma, const T* beta,
                                                                         T* y, size_t /*rows*/, int cols, float eps) {
  constexpr int W = Pack<T>::kSize;
  __shared__ float scratch[kBlockRowThreads / 32];
  const size_t row = blockIdx.x;
  const int t = static_cast<int>(threadIdx.x), packs = cols / W;
  const T* in = x + row * cols;
  Pack<T> v[kPacks];
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    if (t + kBlockRowThreads * k < packs) v[k] = load_pack(in + (t + kBlockRowThreads * k) * W);
  }
  const float mean = block_sum(packs_sum(v, t, kBlockRowThreads, packs), scratch) / static_cast<float>(cols);
  const float var =
      block_sum(packs_centered_squares(v, t, kBlockRowThreads, packs, mean), scratch) / static_cast<float>(cols);
  store_normalized<T, kAffine>(v, t, kBlockRowThreads, packs, mean, rsqrtf(var + eps), gamma, beta, y + row * cols);
}

// Any row length and alignment: one block per row, the row read three times (mean, variance, output).
template <typename T, bool kAffine>
__global__ void __launch_bounds__(kGenericThreads) layernorm_generic(const T* x, const T* gamma, const T* beta, T* y,
                                                                     size_t /*rows*/, int cols, float eps) {
  __shared__ float scratch[kGenericThreads / 32];
  const T* row = x + static_cast<size_t>(blockIdx.x) * cols;
  T* out = y + static_cast<size_t>(blockIdx.x) * cols;
  float s = 0;
  for (int i = static_cast<int>(threadIdx.x); i < cols; i += kGenericThreads) s += to_float(row[i]);
  const float mean = block_sum(s, scratch) / static_cast<float>(cols);
  float q = 0;
  for (int i = static_cast<int>(threadIdx.x); i < cols; i += kGenericThreads) {
    const float d = to_float(row[i]) - mean;
    q += d * d;
  }
  const float rstd = rsqrtf(block_sum(q, scratch) / static_cast<float>(cols) + eps);
  for (int i = static_cast<int>(threadIdx.x); i < cols; i += kGenericThreads) {
    float r = (to_float(row[i]) - mean) * rstd;
    if constexpr (kAffine) r = r * to_float(gamma[i]) + to_float(beta[i]);
    out[i] = from_float<T>(r);
  }
}

template <typename T>
using LayerNormFn = void (*)(const T*, const T*, const T*, T*, size_t, int, float);

template <typename T>
struct LayerNormVariant {
  LayerNormFn<T> fn;
  int threads;
  int rows_per_block;
};

template <typename T, bool kAffine>
LayerNormVariant<T> select_layernorm(int cols, bool aligned) {
  constexpr int W = Pack<T>::kSize;
  if (aligned && cols % W == 0) {
    const int packs = cols / W;
    constexpr int kWarpRows = kWarpRowThreads / 32;
    if (packs <= 32 * 2) return {&layernorm_warp_rows<T, kAffine, 2>, kWarpRowThreads, kWarpRows};
    if (packs <= 32 * 4) return {&layernorm_warp_rows<T, kAffine, 4>, kWarpRowThreads, kWarpRows};
    if (packs <= kBlockRowThreads * 4) return {&layernorm_block_rows<T, kAffine, 4>, kBlockRowThreads, 1};
    if (packs <= kBlockRowThreads * 8) return {&layernorm_block_rows<T, kAffine, 8>, kBlockRowThreads, 1};
  }
  return {&layernorm_generic<T, kAffine>, kGenericThreads, 1};
}

}  // namespace

void launch_layernorm(DType dtype, const void* x, const void* gamma, const void* beta, void* y, size_t rows, int cols,
                      float eps, cudaStream_t stream) {
  if (rows == 0) return;
  if (cols <= 0) throw std::invalid_argument("layernorm: needs cols >= 1");
  if ((gamma == nullptr) != (beta == nullptr)) throw std::invalid_argument("layernorm: gamma and beta go together");
  const bool affine = gamma != nullptr;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    const bool aligned = all_aligned16(x, y) && (!affine || all_aligned16(gamma, beta));
    const LayerNormVariant<T> v = affine ? select_layernorm<T, true>(cols, aligned) : select_layernorm<T, false>(cols, aligned);
    const auto grid = static_cast<unsigned>((rows + v.rows_per_block - 1) / v.rows_per_block);
    v.fn<<<grid, v.threads, 0, stream>>>(static_cast<const T*>(x), static_cast<const T*>(gamma),
                                         static_cast<const T*>(beta), static_cast<T*>(y), rows, cols, eps);
  });
  ARCHBENCH_CHECK_LAUNCH();
}

const void* layernorm_kernel(DType dtype, bool affine, int cols) {
  return storage_kernel(dtype, [&](auto tag) {
    using T = decltype(tag);
    return reinterpret_cast<const void*>(affine ? select_layernorm<T, true>(cols, true).fn
                                                : select_layernorm<T, false>(cols, true).fn);
  });
}

}  // namespace archbench::kernels::norm
