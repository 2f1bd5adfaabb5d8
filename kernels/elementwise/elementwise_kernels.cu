#include "kernels/elementwise/elementwise_kernels.hpp"

#include <algorithm>
#include <stdexcept>

#include "harness/util/cuda_check.hpp"
#include "kernels/common/convert.cuh"

namespace archbench::kernels::elementwise {
namespace {

constexpr int kThreads = 256;

// Enough blocks to fill any current GPU several times over; the loops stride the rest.
unsigned blocks_for(size_t n) { return static_cast<unsigned>(std::min<size_t>((n + kThreads - 1) / kThreads, 8192)); }

__device__ __forceinline__ float silu(float v) { return v / (1.0f + __expf(-v)); }
__device__ __forceinline__ float gelu_tanh(float v) {
  return 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
}
__device__ __forceinline__ float gelu_erf(float v) { return 0.5f * v * (1.0f + erff(v * 0.7071067811865476f)); }

template <typename T, Activation A>
__global__ void activation(const T* x, T* y, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const float v = to_float(x[i]);
    y[i] = from_float<T>(A == Activation::Silu ? silu(v) : gelu_tanh(v));
  }
}

template <typename T>
__global__ void add(const T* a, const T* b, T* y, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    y[i] = from_float<T>(to_float(a[i]) + to_float(b[i]));
  }
}

template <typename T>
__global__ void geglu(const T* x, T* y, size_t rows, size_t cols) {
  const size_t n = rows * cols;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const size_t r = i / cols, c = i % cols;
    const float hidden = to_float(x[r * 2 * cols + c]);
    const float gate = to_float(x[r * 2 * cols + cols + c]);
    y[i] = from_float<T>(hidden * gelu_erf(gate));
  }
}

template <typename T>
__global__ void upsample_nearest2x(const T* x, T* y, size_t planes, int h, int w) {
  const size_t out_plane = 4 * static_cast<size_t>(h) * w, n = planes * out_plane;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const size_t p = i / out_plane, rem = i % out_plane;
    const size_t oy = rem / (2 * static_cast<size_t>(w)), ox = rem % (2 * static_cast<size_t>(w));
    y[i] = x[p * h * w + (oy / 2) * w + ox / 2];
  }
}


}  // namespace

void launch_activation(Activation act, DType dtype, const void* x, void* y, size_t n, cudaStream_t stream) {
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    if (act == Activation::Silu) {
      activation<T, Activation::Silu><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<const T*>(x), static_cast<T*>(y), n);
    } else {
      activation<T, Activation::GeluTanh><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<const T*>(x), static_cast<T*>(y), n);
    }
  });
  ARCHBENCH_CHECK_LAUNCH();
}

void launch_add(DType dtype, const void* a, const void* b, void* y, size_t n, cudaStream_t stream) {
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    add<T><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<const T*>(a), static_cast<const T*>(b), static_cast<T*>(y), n);
  });
  ARCHBENCH_CHECK_LAUNCH();
}

void launch_geglu(DType dtype, const void* x, void* y, size_t rows, size_t cols, cudaStream_t stream) {
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    geglu<T><<<blocks_for(rows * cols), kThreads, 0, stream>>>(static_cast<const T*>(x), static_cast<T*>(y), rows, cols);
  });
  ARCHBENCH_CHECK_LAUNCH();
}

void launch_upsample_nearest2x(DType dtype, const void* x, void* y, size_t planes, int h, int w, cudaStream_t stream) {
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    upsample_nearest2x<T><<<blocks_for(planes * 4 * h * w), kThreads, 0, stream>>>(static_cast<const T*>(x), static_cast<T*>(y),
                                                                                  planes, h, w);
  });
  ARCHBENCH_CHECK_LAUNCH();
}

const void* activation_kernel(Activation act, DType dtype) {
  const void* k = nullptr;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    k = act == Activation::Silu ? reinterpret_cast<const void*>(&activation<T, Activation::Silu>)
                                : reinterpret_cast<const void*>(&activation<T, Activation::GeluTanh>);
  });
  return k;
}

const void* add_kernel(DType dtype) {
  const void* k = nullptr;
  dispatch_storage(dtype, [&](auto tag) { k = reinterpret_cast<const void*>(&add<decltype(tag)>); });
  return k;
}

const void* geglu_kernel(DType dtype) {
  const void* k = nullptr;
  dispatch_storage(dtype, [&](auto tag) { k = reinterpret_cast<const void*>(&geglu<decltype(tag)>); });
  return k;
}

const void* upsample_kernel(DType dtype) {
  const void* k = nullptr;
  dispatch_storage(dtype, [&](auto tag) { k = reinterpret_cast<const void*>(&upsample_nearest2x<decltype(tag)>); });
  return k;
}

}  // namespace archbench::kernels::elementwise
