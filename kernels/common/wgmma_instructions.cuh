// wgmma (sm_90a) as inline PTX: the shared-memory matrix descriptors and the fences and groups around
// the asynchronous multiply-accumulate; the multiply-accumulate itself, mma_ss<TA, TB, N> /
// mma_rs<TA, TB, N> (A of type TA, B of TB), is in wgmma_mma.cuh, generated at build time by
// tools/wgmma/gen_wgmma_mma.py. Device code only; include it from code compiled for sm_90a alone.
#pragma once

#include <cstdint>

#include "kernels/common/wgmma_mma.cuh"

namespace archbench::kernels::wgmma {

// Descriptor fields (sm_90 format): start address >> 4 in bits 0-13, leading-dimension byte
// offset >> 4 in 16-29, stride-dimension byte offset >> 4 in 32-45, base offset 0 in 49-51 (the
// tile starts on a 1024-byte boundary, where the swizzle pattern starts), swizzle mode in 62-63
// (1 = 128-byte swizzle).
__device__ __forceinline__ uint64_t smem_descriptor(uint32_t smem_addr, uint32_t leading_bytes, uint32_t stride_bytes) {
  return static_cast<uint64_t>((smem_addr & 0x3FFFF) >> 4) |
         (static_cast<uint64_t>((leading_bytes & 0x3FFFF) >> 4) << 16) |
         (static_cast<uint64_t>((stride_bytes & 0x3FFFF) >> 4) << 32) | (static_cast<uint64_t>(1) << 62);
}

// A K-major operand tile in 128-byte swizzle: rows of 64 halves (128 bytes), 8-row atoms 1024
// bytes apart (the stride byte offset); the leading byte offset is unused in this mode (16).
__device__ __forceinline__ uint64_t smem_descriptor(uint32_t smem_addr) { return smem_descriptor(smem_addr, 16, 1024); }

// An MN-major operand (wgmma with imm-trans-b = 1) in 128-byte swizzle, stored as panels of 64
// columns: along N, 64 elements (one 128-byte row) per panel, panels `panel_bytes` apart (the
// leading byte offset); along K, 8 rows per 1024-byte atom (the stride byte offset).
__device__ __forceinline__ uint64_t smem_descriptor_mn_major(uint32_t smem_addr, uint32_t panel_bytes) {
  return smem_descriptor(smem_addr, panel_bytes, 1024);
}

__device__ __forceinline__ void fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void commit_group() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wait_group() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// Keeps the compiler from moving register reads or writes across an asynchronous wgmma: it does
// not know that wgmma reads A registers and writes accumulators after the instruction issued.
template <int N>
__device__ __forceinline__ void fence_registers(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
template <int N>
__device__ __forceinline__ void fence_registers(uint32_t (&a)[N][4]) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
#pragma unroll
    for (int j = 0; j < 4; ++j) asm volatile("" : "+r"(a[i][j])::"memory");
  }
}

}  // namespace archbench::kernels::wgmma
