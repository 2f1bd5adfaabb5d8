// The warp tile of the tensor-core GEMM kernel matmul/gemm_tc.cu (conv_tc has its own): each
// warp owns 64 x 32 outputs = 4 x 4 mma.sync m16n8k16 tiles with fp32 accumulators, and walks
// k-tiles of 32 held in shared rows (A as [m][k], B as [n][k], both k-contiguous). The sizes are
// host code too.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#include "kernels/common/tensor_core.cuh"
#endif

namespace archbench::kernels::warp_tile {

constexpr int kBlockK = 32;  // reduction elements per k-tile
constexpr int kWarpM = 64;
constexpr int kWarpN = 32;
constexpr int kMmaM = 16;
constexpr int kMmaN = 8;
constexpr int kMmaK = 16;
constexpr int kFragsM = kWarpM / kMmaM;  // 4 mma tiles down M per warp
constexpr int kFragsN = kWarpN / kMmaN;  // 4 mma tiles across N per warp
// Shared rows hold 32 k-values plus 8 halves of padding: 80 bytes. ldmatrix reads 8 rows of
// 16 bytes per 8x8 matrix; at an 80-byte stride those rows start at banks 0,20,8,28,16,4,24,12
// (mod 32 words), 4 banks each: all 32 banks, no conflict. 80 is also a multiple of 16, as
// cp.async and ldmatrix need. (A 64-byte stride would put rows r and r+2 on the same banks.)
constexpr int kSmemStride = kBlockK + 8;

static_assert(kBlockK % kMmaK == 0, "k tiling");
static_assert(kFragsM * kMmaM == kWarpM && kFragsN * kMmaN == kWarpN, "mma tiles cover a warp");
static_assert(kFragsN % 2 == 0, "one ldmatrix.x4 loads the B fragments of two n8 tiles");
static_assert((kSmemStride * 2) % 16 == 0, "rows must stay 16-byte aligned");

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

// acc += one k-tile of the warp's product. a_frag_base and b_frag_base are this lane's ldmatrix
// row addresses in the A and B tiles (the kernel's fragment mapping), stage_offset the ring slot:
// per 16-wide k step 4 A and 4 B fragments (ldmatrix.x4), each reused 4 times from registers by
// the 16 mma.
template <typename T>
__device__ __forceinline__ void multiply_k_tile(float (&acc)[kFragsM][kFragsN][4], std::uint32_t a_frag_base,
                                                std::uint32_t b_frag_base, std::uint32_t stage_offset) {
#pragma unroll
  for (int ks = 0; ks < kBlockK / kMmaK; ++ks) {
    const std::uint32_t k_bytes = ks * kMmaK * 2;
    std::uint32_t a[kFragsM][4];
    std::uint32_t b[kFragsN][2];
#pragma unroll
    for (int mi = 0; mi < kFragsM; ++mi) {
      tensor_core::ldmatrix_x4(a_frag_base + stage_offset + mi * kMmaM * kSmemStride * 2 + k_bytes, a[mi][0],
                               a[mi][1], a[mi][2], a[mi][3]);
    }
#pragma unroll
    for (int nj = 0; nj < kFragsN / 2; ++nj) {
      tensor_core::ldmatrix_x4(b_frag_base + stage_offset + nj * 2 * kMmaN * kSmemStride * 2 + k_bytes,
                               b[2 * nj][0], b[2 * nj][1], b[2 * nj + 1][0], b[2 * nj + 1][1]);
    }
#pragma unroll
    for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kFragsN; ++ni) {
        tensor_core::mma_16816<T>(acc[mi][ni], a[mi], b[ni]);
      }
    }
  }
}

#endif  // __CUDA_ARCH__ >= 800

}  // namespace archbench::kernels::warp_tile
