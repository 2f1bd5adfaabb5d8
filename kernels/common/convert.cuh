// Element conversions for kernels templated on the storage type: arithmetic is done in float
// (fp32 statistics and math for low-precision inputs), storage stays in the operator's dtype.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <stdexcept>
#include <string>

#include "harness/ops/dtype.hpp"

namespace archbench::kernels {

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

// Host side: calls f with a value of the storage type for `dtype` (f32, f16, bf16). tf32 is a
// matmul math mode, not a storage type, so these kernels have no tf32 variant.
template <typename F>
void dispatch_storage(DType dtype, F&& f) {
  switch (dtype) {
    case DType::F32: f(float{}); return;
    case DType::F16: f(__half{}); return;
    case DType::BF16: f(__nv_bfloat16{}); return;
    case DType::TF32: throw std::invalid_argument("no tf32 variant: tf32 is a matmul math mode");
    case DType::E4M3:
    case DType::E5M2: break;
  }
  throw std::invalid_argument("no " + std::string(dtype_name(dtype)) +
                              " variant of this kernel (FP8 has its own GEMM and attention kernels)");
}

// Host side: calls f with a value of the 16-bit storage type for `dtype` (f16, bf16), for the
// tensor-core kernels that exist only in those; std::invalid_argument naming `what` otherwise.
template <typename F>
void dispatch_half_storage(DType dtype, const char* what, F&& f) {
  switch (dtype) {
    case DType::F16: f(__half{}); return;
    case DType::BF16: f(__nv_bfloat16{}); return;
    case DType::F32:
    case DType::TF32:
    case DType::E4M3:
    case DType::E5M2: break;
  }
  throw std::invalid_argument(std::string(what) + ": f16 or bf16 only (got " + std::string(dtype_name(dtype)) + ")");
}

// Host side: the storage type's instance of a kernel template, as the untyped address that
// occupancy queries and the image probe take. `address_of(tag)` returns that instance
// (&kernel<decltype(tag)>).
template <typename AddressOf>
const void* storage_kernel(DType dtype, AddressOf&& address_of) {
  const void* k = nullptr;
  dispatch_storage(dtype, [&](auto tag) { k = reinterpret_cast<const void*>(address_of(tag)); });
  return k;
}

}  // namespace archbench::kernels
