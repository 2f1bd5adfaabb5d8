// 16-byte vector access for the memory-bound kernels (norm and elementwise families). One
// LDG.128 / STG.128 moves 4 fp32 or 8 fp16/bf16 elements, so a warp keeps 512 bytes in flight
// per instruction instead of 64-128: HBM3e needs about 32 KB in flight per SM (Little's law at
// ~4 TB/s and ~1 us latency over 132 SMs), which scalar 2-byte accesses never reach.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "kernels/common/convert.cuh"

namespace archbench::kernels {

// kSize consecutive elements of T in 16 bytes; a pointer to a Pack must be 16-byte aligned.
template <typename T>
struct alignas(16) Pack {
  static constexpr int kSize = static_cast<int>(16 / sizeof(T));
  T v[kSize];
};

template <typename T>
__device__ __forceinline__ Pack<T> load_pack(const T* p) {
  return *reinterpret_cast<const Pack<T>*>(p);
}

// 32-bit word i (of 4) of a pack, as its bits.
__device__ __forceinline__ unsigned pack_word(const Pack<float>& p, int i) { return __float_as_uint(p.v[i]); }
__device__ __forceinline__ unsigned pack_word(const Pack<__half>& p, int i) {
  return static_cast<unsigned>(__half_as_ushort(p.v[2 * i])) |
         (static_cast<unsigned>(__half_as_ushort(p.v[2 * i + 1])) << 16);
}
__device__ __forceinline__ unsigned pack_word(const Pack<__nv_bfloat16>& p, int i) {
  return static_cast<unsigned>(__bfloat16_as_ushort(p.v[2 * i])) |
         (static_cast<unsigned>(__bfloat16_as_ushort(p.v[2 * i + 1])) << 16);
}

template <typename T>
__device__ __forceinline__ void store_pack(T* p, const Pack<T>& pack) {
  *reinterpret_cast<Pack<T>*>(p) = pack;
}

// store_pack forced to one STG.128 through __stwb (st.global.wb.v4: the default write-back policy,
// but an asm with a memory clobber, so later loads are not hoisted above it: use it after a
// kernel's loads). Where NVVM splits a plain pack store (RMSNorm's first row: 4 x STG.32 in fp32,
// 6 x STG.U16 + 1 x STG.32 in fp16/bf16), each split warp store touches all 16 sectors of its 512
// bytes for 2-4 bytes per lane.
template <typename T>
__device__ __forceinline__ void store_pack_v4(T* p, const Pack<T>& pack) {
  __stwb(reinterpret_cast<uint4*>(p), make_uint4(pack_word(pack, 0), pack_word(pack, 1), pack_word(pack, 2), pack_word(pack, 3)));
}

// Element e of a pack as float. bf16 -> fp32 is written as the 16-bit shift it is: plain integer
// math the compiler recomputes instead of keeping converted copies live, which saves registers
// (occupancy) against __bfloat162float's inline assembly.
template <typename T>
__device__ __forceinline__ float element(const Pack<T>& p, int e) {
  return to_float(p.v[e]);
}
template <>
__device__ __forceinline__ float element(const Pack<__nv_bfloat16>& p, int e) {
  return __uint_as_float(static_cast<unsigned>(__bfloat16_as_ushort(p.v[e])) << 16);
}

// Host side: whether every pointer may be accessed in 16-byte packs.
inline bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }
template <typename... P>
bool all_aligned16(const P*... p) {
  return (aligned16(p) && ...);
}

}  // namespace archbench::kernels
