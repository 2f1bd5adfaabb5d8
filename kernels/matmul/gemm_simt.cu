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
#include "kernels/common/simt_tile.cuh"
#include "harness/util/cuda_check.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace archbench::kernels::matmul {
namespace {

using namespace simt_tile;  // micro-tiles, slices, epilogue (kernels/common/simt_tile.cuh)

constexpr int kBlockM = kBlockTile;
constexpr int kBlockN = kBlockTile;
constexpr int kBlockK = 8;
// Swizzle: consecutive blocks cover kGroupM tile rows of one tile column before moving on, so
// the blocks resident at one time share A and B tiles through L2.
constexpr int kGroupM = 8;

static_assert(kBlockM == kBlockN, "the loader maps one float4 of A and of B per thread");
static_assert(kBlockM * kBlockK == 4 * kThreads, "one float4 of A and of B per thread per k-step");

__global__ void __launch_bounds__(kThreads, 2)
    gemm_simt_f32(const float* __restrict__ A, const float* __restrict__ B,
                  float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[2][kBlockK][kSmemStride];
  __shared__ __align__(16) float Bs[2][kBlockK][kSmemStride];

  const auto [tile_m, tile_n] = grouped_tile<kGroupM>();
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
  auto stash = [&](int buf) { stash_k_major(As[buf], Bs[buf], load_k, load_row, a_next, b_next); };

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
    multiply_slices(As[buf], Bs[buf], tx, ty, acc);
    // The other buffer was last read during step kt-1, and every thread passed the barrier
    // that ended step kt-1, so it is free to overwrite. The barrier below publishes it for
    // step kt+1 and also keeps anyone from overwriting `buf` (at step kt+1) while it is read.
    if (has_next) {
      stash(buf ^ 1);
    }
    __syncthreads();
  }

  store_micro_tile(C, M, N, tile_m, tile_n, tx, ty, acc);
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
