#include "harness/ops/device_tensor_kernels.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>

#include "harness/ops/tensor.hpp"
#include "harness/util/cuda_check.hpp"
#include "harness/util/cuda_raii.hpp"

namespace archbench::device_kernels {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kMaxBlocks = 1u << 16;  // grid-stride beyond this

unsigned blocks_for(size_t numel) {
  return static_cast<unsigned>(std::clamp<size_t>((numel + kThreads - 1) / kThreads, 1, kMaxBlocks));
}

// splitmix64's finalizer over a Weyl sequence: independent-looking 64-bit values per index.
__device__ uint64_t hash_index(uint64_t seed, uint64_t i) {
  uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__device__ void store(float* out, size_t i, float v) { out[i] = v; }
__device__ void store(__half* out, size_t i, float v) { out[i] = __float2half_rn(v); }
__device__ void store(__nv_bfloat16* out, size_t i, float v) { out[i] = __float2bfloat16_rn(v); }
__device__ void store(__nv_fp8_e4m3* out, size_t i, float v) { out[i] = __nv_fp8_e4m3(v); }
__device__ void store(__nv_fp8_e5m2* out, size_t i, float v) { out[i] = __nv_fp8_e5m2(v); }

template <typename T>
__global__ void fill_uniform_kernel(T* out, size_t numel, uint64_t seed, float lo, float span) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < numel; i += size_t{gridDim.x} * blockDim.x) {
    const float u = static_cast<float>(hash_index(seed, i) >> 40) * 0x1p-24f;  // 24 bits: exact in float
    store(out, i, lo + span * u);
  }
}

// Non-finite means an all-ones exponent, in each storage type.
__device__ bool non_finite(float v) { return (__float_as_uint(v) & 0x7F800000u) == 0x7F800000u; }
__device__ bool non_finite(__half v) { return (__half_as_ushort(v) & 0x7C00u) == 0x7C00u; }
__device__ bool non_finite(__nv_bfloat16 v) { return (__bfloat16_as_ushort(v) & 0x7F80u) == 0x7F80u; }
__device__ bool non_finite(__nv_fp8_e4m3 v) { return (v.__x & 0x7Fu) == 0x7Fu; }  // e4m3fn: NaN only, no Inf
__device__ bool non_finite(__nv_fp8_e5m2 v) { return (v.__x & 0x7Cu) == 0x7Cu; }

template <typename T>
__global__ void count_non_finite_kernel(const T* data, size_t numel, unsigned long long* count) {
  unsigned long long mine = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < numel; i += size_t{gridDim.x} * blockDim.x) {
    mine += non_finite(data[i]) ? 1 : 0;
  }
  for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xFFFFFFFFu, mine, offset);
  if ((threadIdx.x & 31) == 0 && mine > 0) atomicAdd(count, mine);
}

bool loads(const void* kernel) {
  cudaFuncAttributes attr{};
  const cudaError_t e = cudaFuncGetAttributes(&attr, kernel);
  if (e != cudaSuccess) (void)cudaGetLastError();  // not sticky: "no image" and the like
  return e == cudaSuccess;
}

}  // namespace

bool available() {
  return loads(reinterpret_cast<const void*>(&fill_uniform_kernel<float>)) &&
         loads(reinterpret_cast<const void*>(&count_non_finite_kernel<float>));
}

void fill_uniform(void* out, DType dtype, size_t numel, uint64_t seed, double lo, double hi) {
  if (numel == 0) return;
  const auto l = static_cast<float>(lo), span = static_cast<float>(hi - lo);
  const unsigned blocks = blocks_for(numel);
  switch (storage_dtype(dtype)) {
    case DType::F16: fill_uniform_kernel<<<blocks, kThreads>>>(static_cast<__half*>(out), numel, seed, l, span); break;
    case DType::BF16:
      fill_uniform_kernel<<<blocks, kThreads>>>(static_cast<__nv_bfloat16*>(out), numel, seed, l, span);
      break;
    case DType::E4M3:
      fill_uniform_kernel<<<blocks, kThreads>>>(static_cast<__nv_fp8_e4m3*>(out), numel, seed, l, span);
      break;
    case DType::E5M2:
      fill_uniform_kernel<<<blocks, kThreads>>>(static_cast<__nv_fp8_e5m2*>(out), numel, seed, l, span);
      break;
    default: fill_uniform_kernel<<<blocks, kThreads>>>(static_cast<float*>(out), numel, seed, l, span); break;
  }
  ARCHBENCH_CHECK_LAUNCH();
  finish_legacy_stream();  // the problems launch on non-blocking streams (tensor.hpp)
}

size_t count_non_finite(const void* data, DType dtype, size_t numel) {
  if (numel == 0) return 0;
  DeviceBuffer count(sizeof(unsigned long long));
  ARCHBENCH_CUDA_CHECK(cudaMemset(count.get(), 0, count.bytes()));
  auto* c = count.as<unsigned long long>();
  const unsigned blocks = blocks_for(numel);
  switch (storage_dtype(dtype)) {
    case DType::F16: count_non_finite_kernel<<<blocks, kThreads>>>(static_cast<const __half*>(data), numel, c); break;
    case DType::BF16:
      count_non_finite_kernel<<<blocks, kThreads>>>(static_cast<const __nv_bfloat16*>(data), numel, c);
      break;
    case DType::E4M3:
      count_non_finite_kernel<<<blocks, kThreads>>>(static_cast<const __nv_fp8_e4m3*>(data), numel, c);
      break;
    case DType::E5M2:
      count_non_finite_kernel<<<blocks, kThreads>>>(static_cast<const __nv_fp8_e5m2*>(data), numel, c);
      break;
    default: count_non_finite_kernel<<<blocks, kThreads>>>(static_cast<const float*>(data), numel, c); break;
  }
  ARCHBENCH_CHECK_LAUNCH();
  unsigned long long host = 0;
  ARCHBENCH_CUDA_CHECK(cudaMemcpy(&host, c, sizeof host, cudaMemcpyDeviceToHost));
  return static_cast<size_t>(host);
}

}  // namespace archbench::device_kernels
