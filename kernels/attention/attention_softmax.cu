// The math path's row softmax: P = softmax(scale · S) row by row, fp32 math, one warp per row.
// One pass keeps a per-lane running maximum and sum (rescaled when the maximum grows), the lanes
// are combined by shuffles, a second pass writes P in the storage type.
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

#include "harness/util/cuda_check.hpp"
#include "kernels/attention/attention_kernels.hpp"
#include "kernels/common/convert.cuh"

namespace archbench::kernels::attention {
namespace {

constexpr int kRowsPerBlock = 8;  // one warp per row

template <typename T>
__global__ void __launch_bounds__(kRowsPerBlock * 32)
    softmax_rows(const float* __restrict__ S, T* __restrict__ P, size_t rows, int cols, float scale_log2) {
  const size_t row = static_cast<size_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
  if (row >= rows) return;  // whole warps only: the shuffles below stay full-warp
  const int lane = static_cast<int>(threadIdx.x % 32);
  const float* s = S + row * static_cast<size_t>(cols);
  float m = -INFINITY;  // log2 domain
  float l = 0.f;
  for (int c = lane; c < cols; c += 32) {
    const float x = s[c] * scale_log2;
    if (x > m) {
      l = l * exp2f(m - x) + 1.f;  // exp2f(-inf) = 0 the first time
      m = x;
    } else {
      l += exp2f(x - m);
    }
  }
  for (int off = 16; off > 0; off /= 2) {
    const float m_other = __shfl_xor_sync(0xffffffffu, m, off);
    const float l_other = __shfl_xor_sync(0xffffffffu, l, off);
    const float m_new = fmaxf(m, m_other);
    if (m_new != -INFINITY) {  // lanes without a column (cols < 32) hold m = -inf, l = 0
      l = l * exp2f(m - m_new) + l_other * exp2f(m_other - m_new);
      m = m_new;
    }
  }
  const float inv = 1.f / l;
  T* p = P + row * static_cast<size_t>(cols);
  for (int c = lane; c < cols; c += 32) p[c] = from_float<T>(exp2f(s[c] * scale_log2 - m) * inv);
}

}  // namespace

void launch_softmax_rows(DType dtype, const float* s, void* p, size_t rows, int cols, float scale,
                         cudaStream_t stream) {
  const auto grid = static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  const auto scale_log2 = static_cast<float>(scale * kLog2e);
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    softmax_rows<T><<<grid, kRowsPerBlock * 32, 0, stream>>>(s, static_cast<T*>(p), rows, cols, scale_log2);
  });
  ARCHBENCH_CHECK_LAUNCH();
}

const void* softmax_rows_kernel(DType dtype) {
  return storage_kernel(dtype, [](auto tag) { return &softmax_rows<decltype(tag)>; });
}

}  // namespace archbench::kernels::attention
