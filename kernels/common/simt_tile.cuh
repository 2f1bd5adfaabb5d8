// The register tiling of the fp32 SIMT kernels (matmul/gemm_simt.cu, conv/conv_simt.cu): a block
// of 256 threads owns a 128 x 128 output tile, each thread an 8 x 8 micro-tile of it, computed
// from k-major slices of A and B in shared memory (As[k][m], Bs[k][n]).
#pragma once

#include <cstddef>

namespace archbench::kernels::simt_tile {

constexpr int kBlockTile = 128;  // output rows and columns per block
constexpr int kThreadTile = 8;   // each thread: 8 rows x 8 columns
// Thread (tx, ty) of the 16x16 thread grid owns rows {ty*4 + 0..3, 64 + ty*4 + 0..3} and
// columns {tx*4 + 0..3, 64 + tx*4 + 0..3}: two float4 per operand per k. Splitting the 8 rows
// into two groups 64 apart (rather than 8 adjacent rows) keeps the 16 threads of a half-warp on
// 16 consecutive float4 of Bs (no bank conflicts) and makes each output store a 256-byte run.
constexpr int kThreadsPerDim = 16;
constexpr int kThreads = kThreadsPerDim * kThreadsPerDim;
constexpr int kHalf = kBlockTile / 2;
// Row stride of the k-major slices. The loaders write a float4 (4 consecutive k of one row m) as
// 4 scalar stores As[k0+i][m]; within a warp 16 rows m and two k0 (0 and 4) occur. With a stride
// of 128 floats both k0 would hit the same banks (2-way conflict); 132 shifts k0 = 4 by
// 4*132 = 528 words = 16 banks, and 132*4 bytes keeps every row 16-byte aligned.
constexpr int kSmemStride = kBlockTile + 4;

static_assert(kThreadsPerDim * kThreadTile == kBlockTile, "thread grid covers the block tile");

// Stores one thread's fetched float4 of A and of B (k positions k0 .. k0+3 of tile row `row`)
// k-major into a pair of slices.
template <int kBlockK>
__device__ __forceinline__ void stash_k_major(float (&As)[kBlockK][kSmemStride], float (&Bs)[kBlockK][kSmemStride],
                                              int k0, int row, float4 a, float4 b) {
  As[k0 + 0][row] = a.x;
  As[k0 + 1][row] = a.y;
  As[k0 + 2][row] = a.z;
  As[k0 + 3][row] = a.w;
  Bs[k0 + 0][row] = b.x;
  Bs[k0 + 1][row] = b.y;
  Bs[k0 + 2][row] = b.z;
  Bs[k0 + 3][row] = b.w;
}

// acc += As-slice · Bs-slice on thread (tx, ty)'s micro-tile: per k, 16 shared loads (as four
// float4) for 64 FMAs, which lets the FMA units, not shared memory, set the pace.
template <int kBlockK>
__device__ __forceinline__ void multiply_slices(const float (&As)[kBlockK][kSmemStride],
                                                const float (&Bs)[kBlockK][kSmemStride], int tx, int ty,
                                                float (&acc)[kThreadTile][kThreadTile]) {
#pragma unroll
  for (int k = 0; k < kBlockK; ++k) {
    const float4 a_lo = *reinterpret_cast<const float4*>(&As[k][ty * 4]);
    const float4 a_hi = *reinterpret_cast<const float4*>(&As[k][kHalf + ty * 4]);
    const float4 b_lo = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);
    const float4 b_hi = *reinterpret_cast<const float4*>(&Bs[k][kHalf + tx * 4]);
    const float a[kThreadTile] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
    const float b[kThreadTile] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
    for (int i = 0; i < kThreadTile; ++i) {
#pragma unroll
      for (int j = 0; j < kThreadTile; ++j) {
        acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
  }
}

// Writes thread (tx, ty)'s micro-tile of block tile (tile_m, tile_n) into the row-major
// [rows, cols] matrix `out`: one float4 per (row, column group) when cols % 4 == 0 (then every
// row starts 16-byte aligned), scalar stores with bounds checks otherwise.
__device__ __forceinline__ void store_micro_tile(float* out, int rows, int cols, int tile_m, int tile_n, int tx,
                                                 int ty, const float (&acc)[kThreadTile][kThreadTile]) {
  const bool vector_ok = cols % 4 == 0;
#pragma unroll
  for (int i = 0; i < kThreadTile; ++i) {
    const int row = tile_m * kBlockTile + (i / 4) * kHalf + ty * 4 + i % 4;
    if (row >= rows) {
      continue;
    }
    float* out_row = out + static_cast<std::size_t>(row) * cols;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = tile_n * kBlockTile + h * kHalf + tx * 4;
      const float* v = &acc[i][h * 4];
      if (vector_ok && col + 3 < cols) {
        *reinterpret_cast<float4*>(out_row + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if (col + j < cols) {
            out_row[col + j] = v[j];
          }
        }
      }
    }
  }
}

}  // namespace archbench::kernels::simt_tile
