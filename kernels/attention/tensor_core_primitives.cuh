// The warp-level building blocks of the attention kernels: the shared tensor-core primitives
// (kernels/common/tensor_core.cuh: cp.async, ldmatrix, mma.sync m16n8k16) plus what only flash
// attention needs: ex2.approx.
//
// Only defined for __CUDA_ARCH__ >= 800 (cp.async and bf16 mma need it); callers compile their
// tensor-core body under the same condition.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

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
using tensor_core::pack_pair;
using tensor_core::smem_address;

// 2^x on the SFU (relative error about 2^-22); ex2(-inf) = +0, which the masked logits rely on.
__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

#endif  // __CUDA_ARCH__ >= 800

}  // namespace archbench::kernels::attention
