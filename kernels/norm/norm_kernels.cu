#include "kernels/norm/norm_kernels.hpp"

#include <stdexcept>

#include "harness/util/cuda_check.hpp"
#include "kernels/common/convert.cuh"

namespace archbench::kernels::norm {
namespace {

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// Sum over the block; every thread gets the result. `scratch` holds one float per warp.
__device__ float block_sum(float v, float* scratch) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_sum(v);
  __syncthreads();  // scratch may still be read from the previous reduction
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  float total = 0;
  for (int i = 0; i < warps; ++i) total += scratch[i];
  return total;
}

// One block per row; two passes over the row (mean, then centered variance) for accuracy.
template <typename T, bool kAffine>
__global__ void layernorm(const T* x, const T* gamma, const T* beta, T* y, int cols, float eps) {
  __shared__ float scratch[32];
  const T* row = x + static_cast<size_t>(blockIdx.x) * cols;
  T* out = y + static_cast<size_t>(blockIdx.x) * cols;
  float s = 0;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) s += to_float(row[i]);
  const float mean = block_sum(s, scratch) / cols;
  float v = 0;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    const float d = to_float(row[i]) - mean;
    v += d * d;
  }
  const float rstd = rsqrtf(block_sum(v, scratch) / cols + eps);
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    float r = (to_float(row[i]) - mean) * rstd;
    if constexpr (kAffine) r = r * to_float(gamma[i]) + to_float(beta[i]);
    out[i] = from_float<T>(r);
  }
}

// One warp per row of 128 elements, four per lane.
template <typename T>
__global__ void rmsnorm128(const T* x, const T* weight, T* y, size_t rows, float eps) {
  const size_t row = (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const T* in = x + row * 128;
  float v[4];
  float ss = 0;
  for (int k = 0; k < 4; ++k) {
    v[k] = to_float(in[lane + 32 * k]);
    ss += v[k] * v[k];
  }
  const float scale = rsqrtf(warp_sum(ss) / 128.0f + eps);
  for (int k = 0; k < 4; ++k) y[row * 128 + lane + 32 * k] = from_float<T>(v[k] * scale * to_float(weight[lane + 32 * k]));
}

// One block per (sample, group): the group's channels are contiguous in NCHW.
template <typename T, bool kSilu>
__global__ void groupnorm(const T* x, const T* gamma, const T* beta, T* y, int c, int hw, int groups, float eps) {
  __shared__ float scratch[32];
  const int per_group = c / groups;
  const size_t count = static_cast<size_t>(per_group) * hw;
  const size_t base = static_cast<size_t>(blockIdx.x) * count;  // blockIdx.x = n * groups + g
  const int g = blockIdx.x % groups;
  float s = 0;
  for (size_t i = threadIdx.x; i < count; i += blockDim.x) s += to_float(x[base + i]);
  const float mean = block_sum(s, scratch) / static_cast<float>(count);
  float v = 0;
  for (size_t i = threadIdx.x; i < count; i += blockDim.x) {
    const float d = to_float(x[base + i]) - mean;
    v += d * d;
  }
  const float rstd = rsqrtf(block_sum(v, scratch) / static_cast<float>(count) + eps);
  for (size_t i = threadIdx.x; i < count; i += blockDim.x) {
    const int ch = g * per_group + static_cast<int>(i / hw);
    float r = (to_float(x[base + i]) - mean) * rstd * to_float(gamma[ch]) + to_float(beta[ch]);
    if constexpr (kSilu) r = r / (1.0f + __expf(-r));
    y[base + i] = from_float<T>(r);
  }
}


}  // namespace

void launch_layernorm(DType dtype, const void* x, const void* gamma, const void* beta, void* y, size_t rows, int cols,
                      float eps, cudaStream_t stream) {
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto grid = static_cast<unsigned>(rows);
    if (gamma != nullptr) {
      layernorm<T, true><<<grid, 256, 0, stream>>>(static_cast<const T*>(x), static_cast<const T*>(gamma),
                                                   static_cast<const T*>(beta), static_cast<T*>(y), cols, eps);
    } else {
      layernorm<T, false><<<grid, 256, 0, stream>>>(static_cast<const T*>(x), nullptr, nullptr, static_cast<T*>(y), cols, eps);
    }
  });
  ARCHBENCH_CHECK_LAUNCH();
}

void launch_rmsnorm128(DType dtype, const void* x, const void* weight, void* y, size_t rows, float eps, cudaStream_t stream) {
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto grid = static_cast<unsigned>((rows * 32 + 255) / 256);
    rmsnorm128<T><<<grid, 256, 0, stream>>>(static_cast<const T*>(x), static_cast<const T*>(weight), static_cast<T*>(y), rows, eps);
  });
  ARCHBENCH_CHECK_LAUNCH();
}

void launch_groupnorm(DType dtype, const void* x, const void* gamma, const void* beta, void* y, int n, int c, int hw,
                      int groups, float eps, bool silu, cudaStream_t stream) {
  if (groups <= 0 || c % groups != 0) throw std::invalid_argument("groupnorm: channels must be a multiple of groups");
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto grid = static_cast<unsigned>(n * groups);
    const auto* xt = static_cast<const T*>(x);
    const auto* gt = static_cast<const T*>(gamma);
    const auto* bt = static_cast<const T*>(beta);
    auto* yt = static_cast<T*>(y);
    if (silu) {
      groupnorm<T, true><<<grid, 1024, 0, stream>>>(xt, gt, bt, yt, c, hw, groups, eps);
    } else {
      groupnorm<T, false><<<grid, 1024, 0, stream>>>(xt, gt, bt, yt, c, hw, groups, eps);
    }
  });
  ARCHBENCH_CHECK_LAUNCH();
}

const void* layernorm_kernel(DType dtype, bool affine) {
  const void* k = nullptr;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    k = affine ? reinterpret_cast<const void*>(&layernorm<T, true>) : reinterpret_cast<const void*>(&layernorm<T, false>);
  });
  return k;
}

const void* rmsnorm128_kernel(DType dtype) {
  const void* k = nullptr;
  dispatch_storage(dtype, [&](auto tag) { k = reinterpret_cast<const void*>(&rmsnorm128<decltype(tag)>); });
  return k;
}

const void* groupnorm_kernel(DType dtype, bool silu) {
  const void* k = nullptr;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    k = silu ? reinterpret_cast<const void*>(&groupnorm<T, true>) : reinterpret_cast<const void*>(&groupnorm<T, false>);
  });
  return k;
}

}  // namespace archbench::kernels::norm
