// fp32 GEMM on the SIMT cores: C[M,N] = A[M,K] · B[N,K]ᵀ (see gemm_kernels.hpp).
//
// Classic shared-memory 2-D block tiling:
//   * A block of 256 threads owns a 128x128 tile of C and walks K in steps of BK = 8.
//   * Each thread keeps an 8x8 micro-tile of C in registers. Per k it reads 8 values of A and
//     8 of B from shared memory and does 64 FMAs: 16 shared loads for 64 FMAs is what lets the
//     FMA units, not shared memory, set the pace.
//   * The 128x8 slices of A and B are stored transposed (k-major: As[k][m], Bs[k][n]), so a
//     thread's 4 consecutive m (or n) values for one k are one float4 load.
//   * Two shared buffers: the next slice is fetched from global memory into registers while
//     the current one is used, then written to the other buffer; one barrier per k-step.
#include "kernels/matmul/gemm_kernels.hpp"
#include "kernels/matmul/gemm_launch_checks.hpp"
#include "kernels/common/grouped_tile.cuh"
#include "harness/util/cuda_check.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace archbench::kernels::matmul {
namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 8;
constexpr int kThreads = 256;
constexpr int kThreadTile = 8;  // each thread: 8 rows x 8 columns of C
// Thread (tx, ty) of the 16x16 thread grid owns rows {ty*4 + 0..3, 64 + ty*4 + 0..3} and
// columns {tx*4 + 0..3, 64 + tx*4 + 0..3}: two float4 per operand per k. Splitting the 8 rows
// into two groups 64 apart (rather than 8 adjacent rows) keeps the 16 threads of a half-warp on
// 16 consecutive float4 of Bs (no bank conflicts) and makes each C store a 256-byte run.
constexpr int kThreadsPerDim = 16;
constexpr int kHalf = kBlockM / 2;
// Row stride of the transposed tiles. The loader writes a float4 of A (4 consecutive k of one
// row m) as 4 scalar stores As[k0+i][m]; within a warp 16 rows m and two k0 (0 and 4) occur.
// With a stride of 128 floats both k0 would hit the same banks (2-way conflict); 132 shifts
// k0 = 4 by 4*132 = 528 words = 16 banks, and 132*4 bytes keeps every row 16-byte aligned.
constexpr int kSmemStride = kBlockM + 4;
// Swizzle: consecutive blocks cover kGroupM tile rows of one tile column before moving on, so
// the blocks resident at one time share A and B tiles through L2.
constexpr int kGroupM = 8;

static_assert(kBlockM == kBlockN, "the loader maps one float4 of A and of B per thread");
static_assert(kBlockM * kBlockK == 4 * kThreads, "one float4 of A and of B per thread per k-step");
static_assert(kThreadsPerDim * kThreadsPerDim == kThreads, "16x16 thread grid");
static_assert(kThreadsPerDim * kThreadTile == kBlockM, "thread grid covers the block tile");

__global__ void __launch_bounds__(kThreads, 2)
    gemm_simt_f32(const float* __restrict__ A, const float* __restrict__ B,
                  float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[2][kBlockK][kSmemStride];
  __shared__ __align__(16) float Bs[2][kBlockK][kSmemStride];

  int tile_m = 0;
  int tile_n = 0;
  grouped_tile<kGroupM>(tile_m, tile_n);
  const int tid = static_cast<int>(threadIdx.x);

  // Loader: each k-step needs 128 rows x 8 k of A and of B = 256 float4 each, one per thread.
  // Thread pairs read the two halves of one row's 32-byte segment. K % 8 == 0 (and 16-byte
  // aligned bases) make every float4 aligned. Rows past M (or N) read nothing and store zeros,
  // so the edge tiles need no special case in the compute loop.
  const int load_row = tid / 2;
  const int load_k = (tid % 2) * 4;
  const int a_row = tile_m * kBlockM + load_row;
  const int b_row = tile_n * kBlockN + load_row;
  const bool a_valid = a_row < M;
  const bool b_valid = b_row < N;
  const float* a_src = A + static_cast<std::size_t>(a_valid ? a_row : 0) * K + load_k;
  const float* b_src = B + static_cast<std::size_t>(b_valid ? b_row : 0) * K + load_k;

  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float4 a_next = zero;
  float4 b_next = zero;
  auto fetch = [&](int k_tile) {
    const std::size_t offset = static_cast<std::size_t>(k_tile) * kBlockK;
    a_next = a_valid ? __ldg(reinterpret_cast<const float4*>(a_src + offset)) : zero;
    b_next = b_valid ? __ldg(reinterpret_cast<const float4*>(b_src + offset)) : zero;
  };
  auto stash = [&](int buf) {
    As[buf][load_k + 0][load_row] = a_next.x;
    As[buf][load_k + 1][load_row] = a_next.y;
    As[buf][load_k + 2][load_row] = a_next.z;
    As[buf][load_k + 3][load_row] = a_next.w;
    Bs[buf][load_k + 0][load_row] = b_next.x;
    Bs[buf][load_k + 1][load_row] = b_next.y;
    Bs[buf][load_k + 2][load_row] = b_next.z;
    Bs[buf][load_k + 3][load_row] = b_next.w;
  };

  const int tx = tid % kThreadsPerDim;
  const int ty = tid / kThreadsPerDim;
  float acc[kThreadTile][kThreadTile] = {};

  const int k_tiles = K / kBlockK;
  fetch(0);
  stash(0);
  __syncthreads();

  for (int kt = 0; kt < k_tiles; ++kt) {
    const int buf = kt % 2;
    const bool has_next = kt + 1 < k_tiles;
    // Issue the next slice's global loads now; their latency hides behind the FMAs below.
    if (has_next) {
      fetch(kt + 1);
    }
#pragma unroll
    for (int k = 0; k < kBlockK; ++k) {
      const float4 a_lo = *reinterpret_cast<const float4*>(&As[buf][k][ty * 4]);
      const float4 a_hi = *reinterpret_cast<const float4*>(&As[buf][k][kHalf + ty * 4]);
      const float4 b_lo = *reinterpret_cast<const float4*>(&Bs[buf][k][tx * 4]);
      const float4 b_hi = *reinterpret_cast<const float4*>(&Bs[buf][k][kHalf + tx * 4]);
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
    // The other buffer was last read during step kt-1, and every thread passed the barrier
    // that ended step kt-1, so it is free to overwrite. The barrier below publishes it for
    // step kt+1 and also keeps anyone from overwriting `buf` (at step kt+1) while it is read.
    if (has_next) {
      stash(buf ^ 1);
    }
    __syncthreads();
  }

  // Epilogue: one float4 per (row, column group) when the row layout allows it (N % 4 == 0
  // makes every row start 16-byte aligned), scalar stores with bounds checks otherwise.
  const bool vector_ok = N % 4 == 0;
#pragma unroll
  for (int i = 0; i < kThreadTile; ++i) {
    const int row = tile_m * kBlockM + (i / 4) * kHalf + ty * 4 + i % 4;
    if (row >= M) {
      continue;
    }
    float* c_row = C + static_cast<std::size_t>(row) * N;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = tile_n * kBlockN + h * kHalf + tx * 4;
      const float* v = &acc[i][h * 4];
      if (vector_ok && col + 3 < N) {
        *reinterpret_cast<float4*>(c_row + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if (col + j < N) {
            c_row[col + j] = v[j];
          }
        }
      }
    }
  }
}

}  // namespace

void launch_gemm_simt_f32(const float* A, const float* B, float* C, int M, int N, int K,
                          cudaStream_t stream) {
  validate_gemm_launch("launch_gemm_simt_f32", GemmTiling{kBlockM, kBlockN, kBlockK}, A, B, C, M, N, K);
  const dim3 grid((N + kBlockN - 1) / kBlockN, (M + kBlockM - 1) / kBlockM);
  gemm_simt_f32<<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K);
  ARCHBENCH_CUDA_CHECK(cudaGetLastError());
}

const void* gemm_simt_f32_kernel() { return reinterpret_cast<const void*>(&gemm_simt_f32); }

}  // namespace archbench::kernels::matmul
