// The sm_80 warp-level building blocks of the tensor-core kernels (GEMM, conv, flash attention),
// as inline PTX: cp.async (global -> shared, zero-fill when invalid), ldmatrix (shared -> mma
// fragments, plain and transposed), mma.sync m16n8k16 with fp32 accumulation, packing two floats
// into one register of pairs, and the element traits the epilogues use.
//
// The PTX helpers exist only for __CUDA_ARCH__ >= 800 (cp.async and bf16 mma need it); callers
// compile their tensor-core body under the same condition and write NaN below it.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace archbench::kernels::tensor_core {

// Per storage type: a quiet NaN (what code built below sm_80 writes), and round-to-nearest
// conversions of one or two fp32 values.
template <typename T>
struct ElementTraits;

template <>
struct ElementTraits<__half> {
  using Pair = __half2;
  static __device__ __forceinline__ __half nan() { return __ushort_as_half(0x7E00); }
  static __device__ __forceinline__ __half from_float(float v) { return __float2half_rn(v); }
  static __device__ __forceinline__ Pair from_floats(float a, float b) { return __floats2half2_rn(a, b); }
};

template <>
struct ElementTraits<__nv_bfloat16> {
  using Pair = __nv_bfloat162;
  static __device__ __forceinline__ __nv_bfloat16 nan() { return __ushort_as_bfloat16(0x7FC0); }
  static __device__ __forceinline__ __nv_bfloat16 from_float(float v) { return __float2bfloat16_rn(v); }
  static __device__ __forceinline__ Pair from_floats(float a, float b) { return __floats2bfloat162_rn(a, b); }
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

// Two floats rounded to nearest into one register of T pairs, `lo` in the low half (the lower
// column index of an mma fragment): an mma A operand, or two outputs stored as one word.
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

__device__ __forceinline__ std::uint32_t smem_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// kBytes-byte global -> shared copy. With valid = false nothing is read (the source size is 0;
// src only has to be a valid address) and the destination is zero-filled: that is how tails and
// padding become 0. 16-byte copies bypass L1 (.cg); .cg only exists for 16 bytes, so smaller
// copies use .ca.
template <int kBytes>
__device__ __forceinline__ void cp_async(std::uint32_t dst, const void* src, bool valid) {
  const int src_bytes = valid ? kBytes : 0;
  if constexpr (kBytes == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes)
                 : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(src), "n"(kBytes),
                 "r"(src_bytes)
                 : "memory");
  }
}

__device__ __forceinline__ void cp_async_16(std::uint32_t dst, const void* src, bool valid) {
  cp_async<16>(dst, src, valid);
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most kPending of this thread's committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// Four 8x8 b16 matrices; lanes 8i..8i+7 give the row addresses of matrix i, and register i of
// every lane receives matrix i's row lane/4, columns 2*(lane%4) + {0,1}.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t addr, std::uint32_t& r0, std::uint32_t& r1,
                                            std::uint32_t& r2, std::uint32_t& r3) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(addr)
               : "memory");
}

__device__ __forceinline__ void ldmatrix_x4(std::uint32_t addr, std::uint32_t (&r)[4]) {
  ldmatrix_x4(addr, r[0], r[1], r[2], r[3]);
}

// Transposed: register i of lane l receives matrix i's rows 2(l%4) and 2(l%4)+1 of column l/4.
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t addr, std::uint32_t (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr)
               : "memory");
}

// d += a · b for one 16x8x16 tile, fp32 accumulation. a: 16x16 row-major fragment (4 registers),
// b: 16x8 "col" fragment (2 registers).
template <typename T>
__device__ __forceinline__ void mma_16816(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                          std::uint32_t b1) {
  if constexpr (std::is_same_v<T, __half>) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  } else {
    static_assert(std::is_same_v<T, __nv_bfloat16>, "f16 or bf16");
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
}

template <typename T>
__device__ __forceinline__ void mma_16816(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  mma_16816<T>(d, a, b[0], b[1]);
}

#endif  // __CUDA_ARCH__ >= 800

}  // namespace archbench::kernels::tensor_core
