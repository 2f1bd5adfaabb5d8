// Pointwise maps y[i] = op(in0[i], ...) over one storage type with fp32 math: SiLU, GELU (tanh)
// and the residual add. Bandwidth comes from 16-byte packs, kUnroll packs per thread and pass
// with every load issued before any math (64 bytes per input in flight per thread), and a
// grid-stride loop over one wave of resident blocks (sized from the SM count and the kernel's
// occupancy); a scalar loop takes the tail and buffers that are not 16-byte aligned.
#include <cstddef>

#include "harness/util/cuda_check.hpp"
#include "kernels/elementwise/elementwise_kernels.hpp"
#include "kernels/common/launch_config.hpp"
#include "kernels/common/unrolled_grid_stride.cuh"
#include "kernels/common/vector_io.cuh"

namespace archbench::kernels::elementwise {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;

template <typename T, int kArity>
struct MapArgs {
  const T* in[kArity];
  T* out;
  size_t n;
  bool vectorized;  // every pointer 16-byte aligned
};

// x / (1 + e^-x). __expf and __fdividef keep it at two MUFU operations per element, so the
// f16 kernels stay memory-bound; their error (a few 1e-7 relative) is far below f32's 1e-5.
struct SiluOp {
  __device__ __forceinline__ float operator()(const float* x) const { return __fdividef(x[0], 1.0f + __expf(-x[0])); }
};

// 0.5 x (1 + tanh(z)) = x / (1 + e^(-2z)) with z = sqrt(2/pi) (x + 0.044715 x^3): the same
// function as the tanh form, without tanhf's cost.
struct GeluTanhOp {
  __device__ __forceinline__ float operator()(const float* x) const {
    constexpr float kTwoSqrt2OverPi = 1.5957691216057308f;
    constexpr float kCubic = kTwoSqrt2OverPi * 0.044715f;
    const float v = x[0];
    return __fdividef(v, 1.0f + __expf(-v * (kTwoSqrt2OverPi + kCubic * v * v)));
  }
};

// The exact GELU, 0.5 x (1 + erf(x / sqrt(2))): PyTorch's nn.GELU() default, beside the tanh form.
struct GeluErfOp {
  __device__ __forceinline__ float operator()(const float* x) const {
    return 0.5f * x[0] * (1.0f + erff(x[0] * 0.70710678118654752f));
  }
};

struct AddOp {
  __device__ __forceinline__ float operator()(const float* x) const { return x[0] + x[1]; }
};

template <typename T, int kArity, typename Op>
__global__ void __launch_bounds__(kThreads) map_kernel(MapArgs<T, kArity> a) {
  constexpr int W = Pack<T>::kSize;
  const Op op{};
  size_t scalar_begin = 0;
  if (a.vectorized) {
    const size_t packs = a.n / W;
    Pack<T> v[kUnroll][kArity];
    unrolled_grid_stride<kThreads, kUnroll>(
        packs,
        [&](int u, size_t p) {
#pragma unroll
          for (int k = 0; k < kArity; ++k) v[u][k] = load_pack(a.in[k] + p * W);
        },
        [&](int u, size_t p) {
          Pack<T> r;
#pragma unroll
          for (int e = 0; e < W; ++e) {
            float x[kArity];
#pragma unroll
            for (int k = 0; k < kArity; ++k) x[k] = element(v[u][k], e);
            r.v[e] = from_float<T>(op(x));
          }
          store_pack(a.out + p * W, r);
        });
    scalar_begin = packs * W;  // fewer than W elements remain
  }
  const size_t stride = static_cast<size_t>(gridDim.x) * kThreads;
  for (size_t i = scalar_begin + static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x; i < a.n; i += stride) {
    float x[kArity];
#pragma unroll
    for (int k = 0; k < kArity; ++k) x[k] = to_float(a.in[k][i]);
    a.out[i] = from_float<T>(op(x));
  }
}

template <typename T, int kArity, typename Op>
void launch_map(MapArgs<T, kArity> args, cudaStream_t stream) {
  constexpr int W = Pack<T>::kSize;
  const auto kernel = &map_kernel<T, kArity, Op>;
  const int per_sm = resident_blocks_per_sm(reinterpret_cast<const void*>(kernel), kThreads);
  const unsigned grid = args.vectorized ? grid_stride_blocks(args.n / W, kThreads * kUnroll, per_sm)
                                        : grid_stride_blocks(args.n, kThreads, per_sm);
  kernel<<<grid, kThreads, 0, stream>>>(args);
  ARCHBENCH_CHECK_LAUNCH();
}

}  // namespace

void launch_activation(Activation act, DType dtype, const void* x, void* y, size_t n, cudaStream_t stream) {
  if (n == 0) return;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    const MapArgs<T, 1> args{{static_cast<const T*>(x)}, static_cast<T*>(y), n, all_aligned16(x, y)};
    switch (act) {
      case Activation::Silu: launch_map<T, 1, SiluOp>(args, stream); break;
      case Activation::GeluTanh: launch_map<T, 1, GeluTanhOp>(args, stream); break;
      case Activation::GeluErf: launch_map<T, 1, GeluErfOp>(args, stream); break;
    }
  });
}

void launch_add(DType dtype, const void* a, const void* b, void* y, size_t n, cudaStream_t stream) {
  if (n == 0) return;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    const MapArgs<T, 2> args{{static_cast<const T*>(a), static_cast<const T*>(b)}, static_cast<T*>(y), n,
                             all_aligned16(a, b, y)};
    launch_map<T, 2, AddOp>(args, stream);
  });
}

const void* activation_kernel(Activation act, DType dtype) {
  const void* k = nullptr;
  dispatch_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    switch (act) {
      case Activation::Silu: k = reinterpret_cast<const void*>(&map_kernel<T, 1, SiluOp>); break;
      case Activation::GeluTanh: k = reinterpret_cast<const void*>(&map_kernel<T, 1, GeluTanhOp>); break;
      case Activation::GeluErf: k = reinterpret_cast<const void*>(&map_kernel<T, 1, GeluErfOp>); break;
    }
  });
  return k;
}

const void* add_kernel(DType dtype) {
  return storage_kernel(dtype, [](auto tag) { return &map_kernel<decltype(tag), 2, AddOp>; });
}

}  // namespace archbench::kernels::elementwise
