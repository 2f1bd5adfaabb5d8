// RMSNorm over rows of 128 (Flux's QK-norm on the head dim): y = x / sqrt(mean(x^2) + eps) * w,
// fp32 math.
//
// A row is one 16-byte pack per lane: 32 lanes in fp32, 16 in fp16/bf16 (two rows per warp), so
// the sum of squares is a shuffle reduction within the row's lanes. Each thread keeps
// kRowsPerThread rows in flight (their loads issued together): 32 bytes per thread, 64 KB per
// SM at full occupancy. Stores go through store_pack_v4: a plain pack store of the first row was
// split by NVVM into 4-7 narrow stores. Unaligned buffers take a scalar warp-per-row kernel.
#include <cstddef>

#include "harness/util/cuda_check.hpp"
#include "kernels/common/vector_io.cuh"
#include "kernels/norm/norm_kernels.hpp"
#include "kernels/norm/reduce.cuh"

namespace archbench::kernels::norm {
namespace {

constexpr int kCols = 128;
constexpr int kThreads = 256;
constexpr int kRowsPerThread = 2;
// Full occupancy (at most 32 registers at 2048 threads); the packed bf16 store wanted 33. The
// thread count an SM holds depends on the arch being compiled, and ptxas rejects a larger one.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || (__CUDA_ARCH__ >= 1000 && __CUDA_ARCH__ < 1100)
constexpr int kMaxThreadsPerSm = 2048;
#elif __CUDA_ARCH__ == 750
constexpr int kMaxThreadsPerSm = 1024;
#else
constexpr int kMaxThreadsPerSm = 1536;  // 8.6, 8.7, 8.9, 11.x, 12.x
#endif
constexpr int kBlocksPerSm = kMaxThreadsPerSm / kThreads;

template <typename T>
__host__ __device__ constexpr int rows_per_block() {
  return kThreads / (kCols / Pack<T>::kSize) * kRowsPerThread;
}

template <typename T>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) rmsnorm128_packs(const T* x, const T* weight, T* y, size_t rows, float eps) {
  constexpr int W = Pack<T>::kSize;
  constexpr int kLanes = kCols / W;               // threads per row
  constexpr int kRowsPerPass = kThreads / kLanes;  // rows the block covers per pass
  const int lane = static_cast<int>(threadIdx.x % kLanes);
  const size_t first = static_cast<size_t>(blockIdx.x) * rows_per_block<T>() + threadIdx.x / kLanes;
  Pack<T> v[kRowsPerThread];
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r) {
    const size_t row = first + static_cast<size_t>(r) * kRowsPerPass;
    if (row < rows) v[r] = load_pack(x + row * kCols + lane * W);
  }
  const Pack<T> w = load_pack(weight + lane * W);
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r) {
    const size_t row = first + static_cast<size_t>(r) * kRowsPerPass;
    float ss = 0;
    if (row < rows) {
#pragma unroll
      for (int e = 0; e < W; ++e) ss += element(v[r], e) * element(v[r], e);
    }
    const float scale = rsqrtf(lane_group_sum<kLanes>(ss) / kCols + eps);  // every lane takes part in the shuffle
    if (row < rows) {
      Pack<T> out;
#pragma unroll
      for (int e = 0; e < W; ++e) out.v[e] = from_float<T>(element(v[r], e) * scale * element(w, e));
      store_pack_v4(y + row * kCols + lane * W, out);
    }
  }
}

// Any alignment: one warp per row, four scalar elements per lane.
template <typename T>
__global__ void __launch_bounds__(kThreads) rmsnorm128_scalar(const T* x, const T* weight, T* y, size_t rows, float eps) {
  const size_t row = (static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (row >= rows) return;  // whole warps leave together
  float v[4];
  float ss = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    v[k] = to_float(x[row * kCols + lane + 32 * k]);
    ss += v[k] * v[k];
  }
  const float scale = rsqrtf(lane_group_sum(ss) / kCols + eps);
#pragma unroll
  for (int k = 0; k < 4; ++k) y[row * kCols + lane + 32 * k] = from_float<T>(v[k] * scale * to_float(weight[lane + 32 * k]));
}

}  // namespace

void launch_rmsnorm128(DType dtype, const void* x, const void* weight, void* y, size_t rows, float eps,
                       cudaStream_t stream) {
  if (rows == 0) return;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto* xt = static_cast<const T*>(x);
    const auto* wt = static_cast<const T*>(weight);
    auto* yt = static_cast<T*>(y);
    if (all_aligned16(x, weight, y)) {
      const auto grid = static_cast<unsigned>((rows + rows_per_block<T>() - 1) / rows_per_block<T>());
      rmsnorm128_packs<T><<<grid, kThreads, 0, stream>>>(xt, wt, yt, rows, eps);
    } else {
      const auto grid = static_cast<unsigned>((rows * 32 + kThreads - 1) / kThreads);
      rmsnorm128_scalar<T><<<grid, kThreads, 0, stream>>>(xt, wt, yt, rows, eps);
    }
  });
  ARCHBENCH_CHECK_LAUNCH();
}

const void* rmsnorm128_kernel(DType dtype) {
  return storage_kernel(dtype, [](auto tag) { return &rmsnorm128_packs<decltype(tag)>; });
}

}  // namespace archbench::kernels::norm
