// The warp-level building blocks of the attention kernels: the shared tensor-core primitives
// (kernels/common/tensor_core.cuh: cp.async, ldmatrix, mma.sync m16n8k16) plus what only flash
// attention needs: packing probabilities into an mma operand register, and ex2.approx.
//
// Only defined for __CUDA_ARCH__ >= 800 (cp.async and bf16 mma need it); callers compile their
// tensor-core body under the same condition.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/common/tensor_core.cuh"

namespace archbench::kernels::attention {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

// cp.async, ldmatrix and mma are the ones every tensor-core family shares.
using tensor_core::cp_async_16;
using tensor_core::cp_async_commit;
using tensor_core::cp_async_wait;
using tensor_core::ldmatrix_x4;
using tensor_core::ldmatrix_x4_trans;
using tensor_core::mma_16816;
using tensor_core::smem_address;

// Two floats rounded to nearest into one register of T pairs, `lo` in the low half (the lower
// column index of an mma fragment).
template <typename T>
__device__ __forceinline__ std::uint32_t pack_pair(float lo, float hi) {
  if constexpr (std::is_same_v<T, __half>) {
    const __half2 h = __floats2half2_rn(lo, hi);
    return static_cast<std::uint32_t>(__half_as_ushort(h.x)) |
           (static_cast<std::uint32_t>(__half_as_ushort(h.y)) << 16);
  } else {
    const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return static_cast<std::uint32_t>(__bfloat16_as_ushort(h.x)) |
           (static_cast<std::uint32_t>(__bfloat16_as_ushort(h.y)) << 16);
  }
}

// 2^x on the SFU (relative error about 2^-22); ex2(-inf) = +0, which the masked logits rely on.
__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

#endif  // __CUDA_ARCH__ >= 800

}  // namespace archbench::kernels::attention
