// fp16 / bf16 GEMM on the tensor cores: C[M,N] = A[M,K] · B[N,K]ᵀ (see gemm_kernels.hpp),
// with warp-level mma.sync.m16n8k16 and fp32 accumulation.
//
// Structure (one templated kernel, instantiated for __half and __nv_bfloat16):
//   * A block of 256 threads (8 warps) owns a 128x128 tile of C and walks K in steps of 32.
//     The 8 warps form a 2 (M) x 4 (N) grid; each warp owns 64x32 of C = 4 x 4 mma tiles of
//     16x8, i.e. 64 fp32 accumulators per thread. Per 16-wide k step a warp loads 4 A fragments
//     and 4 B fragments and issues 16 mma: each fragment is reused 4 times from registers.
//   * Global -> shared copies use cp.async (16 bytes per instruction, no register staging) in
//     a 3-stage ring, so two k-tiles are in flight while the tensor cores work on a third.
//   * Shared -> register copies use ldmatrix, which hands out exactly the mma fragment layout.
//     B is stored as it is in memory (Bs[n][k], k contiguous), which is already the
//     "col" (k-major per n) operand layout mma expects, so no transposition is needed.
//   * Built for targets older than sm_80 (no cp.async, no bf16 mma) the kernel only fills its
//     C tile with quiet NaN, so running such code fails any correctness check visibly.
#include "kernels/matmul/gemm_kernels.hpp"
#include "kernels/matmul/gemm_launch_checks.hpp"
#include "kernels/common/grouped_tile.cuh"
#include "kernels/common/shared_memory_opt_in.hpp"
#include "kernels/common/tensor_core.cuh"
#include "kernels/common/warp_tile.cuh"
#include "harness/util/cuda_check.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace archbench::kernels::matmul {
namespace {

using namespace warp_tile;  // k-tiles of 32, 64x32 warp tiles of m16n8k16 (kernels/common/warp_tile.cuh)

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kStages = 3;
constexpr int kThreads = 256;
constexpr int kWarpsN = 4;  // warps are laid out 2 (M) x 4 (N)
constexpr int kStageElems = (kBlockM + kBlockN) * kSmemStride;  // A tile, then B tile
constexpr int kSmemBytes = kStages * kStageElems * 2;           // 61440 bytes: needs opt-in
constexpr int kChunk = 8;                                       // halves per 16-byte copy
constexpr int kChunksPerRow = kBlockK / kChunk;                 // 4
constexpr int kCopiesPerThread = kBlockM * kChunksPerRow / kThreads;  // 2 for A, 2 for B
constexpr int kRowsPerCopyPass = kThreads / kChunksPerRow;            // 64
constexpr int kGroupM = 8;  // swizzle group height, see grouped_tile

static_assert(kBlockM == kBlockN, "one copy mapping serves both A and B tiles");
static_assert((kBlockM / kWarpM) * kWarpsN * 32 == kThreads, "2 x 4 warps");
static_assert(kWarpsN * kWarpN == kBlockN, "warp grid covers the block tile");
static_assert(kBlockK % kChunk == 0, "whole copies per k-tile row");
static_assert(kCopiesPerThread * kRowsPerCopyPass == kBlockM, "copy passes cover the tile rows");

using namespace tensor_core;  // ElementTraits, cp.async, ldmatrix, mma (kernels/common/tensor_core.cuh)

template <typename T>
__global__ void __launch_bounds__(kThreads, 2)
    gemm_tc(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N,
            int K) {
  const auto [tile_m, tile_n] = grouped_tile<kGroupM>();
  const int tid = static_cast<int>(threadIdx.x);

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ __align__(16) unsigned char smem[];
  const std::uint32_t smem_base = smem_address(smem);

  // ---- Copy mapping: a k-tile of A is 128 rows x 4 chunks of 16 bytes = 512 chunks, two per
  // thread (rows tid/4 and tid/4 + 64, chunk tid%4); the same for B. Four consecutive threads
  // read one row's contiguous 64 bytes.
  const int copy_row = tid / kChunksPerRow;
  const int copy_k = (tid % kChunksPerRow) * kChunk;
  const T* a_src[kCopiesPerThread];
  const T* b_src[kCopiesPerThread];
  bool a_row_ok[kCopiesPerThread];
  bool b_row_ok[kCopiesPerThread];
#pragma unroll
  for (int i = 0; i < kCopiesPerThread; ++i) {
    const int a_row = tile_m * kBlockM + copy_row + i * kRowsPerCopyPass;
    const int b_row = tile_n * kBlockN + copy_row + i * kRowsPerCopyPass;
    a_row_ok[i] = a_row < M;
    b_row_ok[i] = b_row < N;
    // Out-of-range rows keep a valid address (row 0); cp.async reads 0 bytes from it.
    a_src[i] = A + static_cast<std::size_t>(a_row_ok[i] ? a_row : 0) * K + copy_k;
    b_src[i] = B + static_cast<std::size_t>(b_row_ok[i] ? b_row : 0) * K + copy_k;
  }
  const std::uint32_t copy_dst = smem_base + (copy_row * kSmemStride + copy_k) * 2;
  constexpr std::uint32_t kCopyPassBytes = kRowsPerCopyPass * kSmemStride * 2;
  constexpr std::uint32_t kBTileOffsetBytes = kBlockM * kSmemStride * 2;
  constexpr std::uint32_t kStageBytes = kStageElems * 2;

  // Enqueues the cp.async copies of k-tile `k_tile` into ring slot `stage`. K % 8 == 0 means a
  // 16-byte chunk is either entirely below K or entirely past it (zero-filled).
  auto load_tile = [&](int k_tile, int stage) {
    const int k = k_tile * kBlockK + copy_k;
    const bool k_ok = k < K;
    const std::size_t k_offset = static_cast<std::size_t>(k_tile) * kBlockK;
    const std::uint32_t dst = copy_dst + stage * kStageBytes;
#pragma unroll
    for (int i = 0; i < kCopiesPerThread; ++i) {
      const bool a_ok = a_row_ok[i] && k_ok;
      const bool b_ok = b_row_ok[i] && k_ok;
      cp_async_16(dst + i * kCopyPassBytes, a_ok ? a_src[i] + k_offset : A, a_ok);
      cp_async_16(dst + kBTileOffsetBytes + i * kCopyPassBytes, b_ok ? b_src[i] + k_offset : B,
                  b_ok);
    }
  };

  // ---- Fragment mapping. Warp w owns rows warp_m*64.. and columns warp_n*32.. of the tile.
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int warp_m = warp / kWarpsN;
  const int warp_n = warp % kWarpsN;
  // A (16x16, row-major in smem): matrices 0..3 of one ldmatrix.x4 are rows 0-7/k 0-7,
  // rows 8-15/k 0-7, rows 0-7/k 8-15, rows 8-15/k 8-15, which is exactly the register order
  // a0..a3 of the mma A operand. So lane l points at row l%16, k offset (l/16)*8.
  const std::uint32_t a_frag_base =
      smem_base + ((warp_m * kWarpM + lane % 16) * kSmemStride + (lane / 16) * 8) * 2;
  // B (Bs[n][k]): an 8x8 block with rows = n, columns = k, read without transposition, gives
  // lane l the values n = l/4, k = 2*(l%4) + {0,1}: the mma B register b0 (k 0-7) or b1
  // (k 8-15). One x4 covers two n8 tiles: matrices = (n 0-7, k 0-7), (n 0-7, k 8-15),
  // (n 8-15, k 0-7), (n 8-15, k 8-15) -> b0, b1 of tile 0, then b0, b1 of tile 1.
  const int b_lane_n = (lane & 7) + ((lane >> 4) << 3);
  const int b_lane_k = ((lane >> 3) & 1) * 8;
  const std::uint32_t b_frag_base =
      smem_base + kBTileOffsetBytes +
      ((warp_n * kWarpN + b_lane_n) * kSmemStride + b_lane_k) * 2;

  float acc[kFragsM][kFragsN][4] = {};

  auto compute_tile = [&](int stage) { multiply_k_tile<T>(acc, a_frag_base, b_frag_base, stage * kStageBytes); };

  // ---- Pipeline. One commit group per k-tile, committed even when empty, so that "group g"
  // always means "k-tile g" and wait_group<kStages-2> at step kt means "k-tile kt has landed".
  const int k_tiles = (K + kBlockK - 1) / kBlockK;
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) {
      load_tile(s, s);
    }
    cp_async_commit();
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    // This thread's copies of tile kt are done; the barrier makes everyone's visible. It also
    // proves every warp finished computing tile kt-1, whose slot is refilled just below
    // (slot (kt+2)%3 == (kt-1)%3): without it a fast warp would overwrite data still in use.
    cp_async_wait<kStages - 2>();
    __syncthreads();
    const int next = kt + kStages - 1;
    if (next < k_tiles) {
      load_tile(next, next % kStages);
    }
    cp_async_commit();
    compute_tile(kt % kStages);
  }
  // Groups still pending here are empty (tiles >= k_tiles), so nothing writes shared memory
  // after the loop and no final wait is needed.

  // ---- Epilogue. Accumulator layout of one 16x8 tile: c0, c1 at row lane/4, columns
  // 2*(lane%4) + {0,1}; c2, c3 at row lane/4 + 8, same columns. Each pair is stored as one
  // 2-element vector when N is even (then every pair is 4-byte aligned); with N odd, or at the
  // last column, elements are stored one by one.
  using Traits = ElementTraits<T>;
  using Pair = typename Traits::Pair;
  const bool pair_ok = N % 2 == 0;
  const int row_base = tile_m * kBlockM + warp_m * kWarpM + lane / 4;
  const int col_base = tile_n * kBlockN + warp_n * kWarpN + (lane % 4) * 2;
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int row = row_base + mi * kMmaM + half * 8;
      if (row >= M) {
        continue;
      }
      T* c_row = C + static_cast<std::size_t>(row) * N;
#pragma unroll
      for (int ni = 0; ni < kFragsN; ++ni) {
        const int col = col_base + ni * kMmaN;
        const float v0 = acc[mi][ni][half * 2];
        const float v1 = acc[mi][ni][half * 2 + 1];
        if (pair_ok && col + 1 < N) {
          *reinterpret_cast<Pair*>(c_row + col) = Traits::from_floats(v0, v1);
        } else {
          if (col < N) {
            c_row[col] = Traits::from_float(v0);
          }
          if (col + 1 < N) {
            c_row[col + 1] = Traits::from_float(v1);
          }
        }
      }
    }
  }
#else
  // Pre-sm_80 device code (and the host pass): no cp.async / bf16 mma. Poison the C tile.
  (void)A;
  (void)B;
  (void)K;
  const T nan = ElementTraits<T>::nan();
  for (int i = tid; i < kBlockM * kBlockN; i += kThreads) {
    const int row = tile_m * kBlockM + i / kBlockN;
    const int col = tile_n * kBlockN + i % kBlockN;
    if (row < M && col < N) {
      C[static_cast<std::size_t>(row) * N + col] = nan;
    }
  }
#endif
}

template <typename T>
void launch(const char* fn, const T* A, const T* B, T* C, int M, int N, int K,
            cudaStream_t stream) {
  validate_gemm_launch(fn, GemmTiling{kBlockM, kBlockN, kChunk}, A, B, C, M, N, K);
  // The 61440 bytes of dynamic shared memory exceed the default 48 KB limit.
  opt_in_dynamic_shared_memory(reinterpret_cast<const void*>(&gemm_tc<T>), kSmemBytes, "gemm_tc");
  const dim3 grid((N + kBlockN - 1) / kBlockN, (M + kBlockM - 1) / kBlockM);
  gemm_tc<T><<<grid, kThreads, kSmemBytes, stream>>>(A, B, C, M, N, K);
  ARCHBENCH_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_gemm_tc_f16(const __half* A, const __half* B, __half* C, int M, int N, int K,
                        cudaStream_t stream) {
  launch("launch_gemm_tc_f16", A, B, C, M, N, K, stream);
}

void launch_gemm_tc_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C,
                         int M, int N, int K, cudaStream_t stream) {
  launch("launch_gemm_tc_bf16", A, B, C, M, N, K, stream);
}

const void* gemm_tc_f16_kernel() { return reinterpret_cast<const void*>(&gemm_tc<__half>); }

const void* gemm_tc_bf16_kernel() {
  return reinterpret_cast<const void*>(&gemm_tc<__nv_bfloat16>);
}

}  // namespace archbench::kernels::matmul
