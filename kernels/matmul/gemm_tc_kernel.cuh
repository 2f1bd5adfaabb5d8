// The block of the tensor-core GEMM, templated on its tiling (gemm_tc_tiles.cuh): gemm_tc.cu wraps
// it, at KernelTiling, in its __global__ function; a variant bench can wrap it at any Tiling.
// C[M,N] = A[M,K] · B[N,K]ᵀ (gemm_kernels.hpp), mma.sync.m16n8k16 with fp32 accumulation.
//
// Main loop, per k-tile kt (kKSteps mma k steps of 16):
//   * cp.async copies of k-tile kt + Stages - 1 are spread over k steps 0..kKSteps-2 (a few per
//     step rather than a burst that stalls the mma behind it; a 32-wide k-tile has two k steps, so
//     its 8 copies per thread all go at step 0) and committed as one group, into the stage
//     k-tile kt - 1 used. One group per k-tile, committed even when empty, so that
//     wait_group<Stages-2> at the last k step of kt means "k-tile kt + 1 has landed".
//   * Fragments are double-buffered in registers: k step ks issues the ldmatrix of step ks + 1,
//     then the 32 mma of step ks, so shared-memory latency hides behind tensor-core work. The
//     block barrier sits at the last k step, after its fragments are already loaded: it proves
//     k-tile kt + 1 landed for everyone (the ldmatrix right after it reads it) and that every warp
//     has read k-tile kt's stage (all its ldmatrix were issued before it), which the copies of the
//     next k-tile then overwrite.
//
// Built for sm_90 or newer, one thread has the copy engine bring a k-tile's A and B tiles (two
// 2-D tensor copies into the same swizzled layout, completing on the stage's mbarrier, which
// every thread waits on after the barrier at the last k step) in place of the cp.async copies.
//
// Built for targets older than sm_80 (no cp.async, no bf16 mma) the block only fills its C tile
// with quiet NaN, so running such code fails any correctness check visibly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <cuda.h>  // CUtensorMap

#include "kernels/common/grouped_tile.cuh"
#include "kernels/common/swizzle_atom.hpp"
#include "kernels/common/tensor_core.cuh"
#include "kernels/common/tma_pipeline.cuh"
#include "kernels/matmul/gemm_tc_tiles.cuh"

namespace archbench::kernels::matmul::tc {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

__device__ __forceinline__ void st_shared_b32(std::uint32_t addr, std::uint32_t v) {
  asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(addr), "r"(v) : "memory");
}

__device__ __forceinline__ uint4 ld_shared_v4(std::uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(addr)
               : "memory");
  return v;
}

#endif  // __CUDA_ARCH__ >= 800

// One block's BlockM x BlockN tile of C (grouped_tile order). Launch with Tl::kThreads threads and
// Tl::kLaunchSmemBytes of dynamic shared memory. map_a and map_b (A and B in boxes of one tile's
// rows x one k-tile, Tl's swizzle: gemm_tc.cu) are read only by code built for sm_90 and newer.
template <typename T, class Tl>
__device__ __forceinline__ void gemm_tc_block(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C,
                                              int M, int N, int K, const CUtensorMap* map_a,
                                              const CUtensorMap* map_b) {
  const auto [tile_m, tile_n] = grouped_tile<kGroupM>();
  const int tid = static_cast<int>(threadIdx.x);

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using namespace tensor_core;
  constexpr int kStages = Tl::kStages;
  constexpr int kKSteps = Tl::kKSteps;
#if __CUDA_ARCH__ >= 900
  constexpr bool kCopyEngine = Tl::kTensorCopies;
#else
  constexpr bool kCopyEngine = false;
#endif
  extern __shared__ __align__(128) unsigned char smem[];
  // With the copy engine the ring starts a swizzle atom (kLaunchSmemBytes has the slack).
  const std::uint32_t smem_base = kCopyEngine ? swizzle_atom_aligned(smem_address(smem)) : smem_address(smem);
  const std::uint32_t ring_last = smem_base + (kStages - 1) * Tl::kStageBytes;
  // k-tile kt lives in stage kt % kStages (the copy engine's barriers follow the same rule).
  const tma::RingBarriers<kStages> tile_full{smem_base + Tl::kBarrierOffset};
  if constexpr (kCopyEngine) {
    if (tid == 0) {
      tile_full.init();
      tma::prefetch_map(map_a);
      tma::prefetch_map(map_b);
    }
    __syncthreads();
  } else {
    (void)map_a;
    (void)map_b;
  }
  auto next_stage = [&](std::uint32_t stage) { return stage == ring_last ? smem_base : stage + Tl::kStageBytes; };

  const int block_row = tile_m;  // (lambdas may not capture structured bindings in C++17)
  const int block_col = tile_n;
  // Before reading k-tile kt: the copy engine's bytes of it have landed (no-op without it).
  auto wait_tile = [&](int kt) {
    if constexpr (kCopyEngine) tile_full.wait(kt);
  };

  // ---- Copies. Bit i of a_rows / b_rows: the row of copy i is inside the matrix. Rows past the
  // edge keep row 0's address, and cp.async reads nothing from it (zero fill).
  const int copy_row = Tl::copy_row(tid);
  const int copy_k = Tl::copy_chunk(tid) * kChunkElems;
  const std::uint32_t copy_dst = Tl::copy_offset(tid);
  const int a_row = tile_m * Tl::kBlockM + copy_row;
  const int b_row = tile_n * Tl::kBlockN + copy_row;
  std::uint32_t a_rows = 0;
  std::uint32_t b_rows = 0;
#pragma unroll
  for (int i = 0; i < Tl::kACopies; ++i) a_rows |= (a_row + i * Tl::kRowsPerPass < M ? 1u : 0u) << i;
#pragma unroll
  for (int i = 0; i < Tl::kBCopies; ++i) b_rows |= (b_row + i * Tl::kRowsPerPass < N ? 1u : 0u) << i;
  const T* a_src = A + static_cast<std::size_t>(a_row < M ? a_row : 0) * K + copy_k;
  const T* b_src = B + static_cast<std::size_t>(b_row < N ? b_row : 0) * K + copy_k;
  const std::size_t pass_stride = static_cast<std::size_t>(Tl::kRowsPerPass) * K;

  // Copies of k-tile kt into `stage`, part `part` of kParts (the copies are numbered A then B and
  // split evenly). K % 8 == 0: a chunk is entirely below K or entirely past it (zero fill).
  constexpr int kCopies = Tl::kACopies + Tl::kBCopies;
  constexpr int kParts = kKSteps - 1;
  auto copy_part = [&](int kt, std::uint32_t stage, int part) {
    if constexpr (kCopyEngine) {
      if (part == 0 && tid == 0) {
        const std::uint32_t bar = tile_full.arm(kt % kStages, Tl::kStageBytes);
        tma::load_2d(stage, map_a, bar, kt * Tl::kBlockK, block_row * Tl::kBlockM);
        tma::load_2d(stage + Tl::kATileBytes, map_b, bar, kt * Tl::kBlockK, block_col * Tl::kBlockN);
      }
      return;
    }
    const int k_offset = kt * Tl::kBlockK;
    const bool k_ok = copy_k + k_offset < K;
#pragma unroll
    for (int c = 0; c < kCopies; ++c) {
      if (c * kParts / kCopies != part) continue;
      if (c < Tl::kACopies) {
        const bool ok = k_ok && ((a_rows >> c) & 1u) != 0;
        cp_async_16(stage + copy_dst + c * Tl::kPassBytes, ok ? a_src + c * pass_stride + k_offset : A, ok);
      } else {
        const int i = c - Tl::kACopies;
        const bool ok = k_ok && ((b_rows >> i) & 1u) != 0;
        cp_async_16(stage + Tl::kATileBytes + copy_dst + i * Tl::kPassBytes,
                    ok ? b_src + i * pass_stride + k_offset : B, ok);
      }
    }
  };

  // ---- Fragments: warp (warp_m, warp_n) owns rows warp_m*64.. and columns warp_n*64.. of the tile.
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int warp_m = warp / Tl::kWarpsN;
  const int warp_n = warp % Tl::kWarpsN;
  const std::uint32_t a_lane = Tl::a_lane_offset(warp_m, lane);
  const std::uint32_t b_lane = Tl::b_lane_offset(warp_n, lane);
  std::uint32_t a_frag[2][kFragsM][4];
  std::uint32_t b_frag[2][kFragsN][2];
  float acc[kFragsM][kFragsN][4] = {};

  auto load_fragments = [&](int buf, std::uint32_t stage, int ks) {
    const std::uint32_t a_addr = stage + Tl::at_k_step(a_lane, ks);
    const std::uint32_t b_addr = stage + Tl::at_k_step(b_lane, ks);
#pragma unroll
    for (int mi = 0; mi < kFragsM; ++mi) ldmatrix_x4(a_addr + mi * Tl::kFragRowsBytes, a_frag[buf][mi]);
#pragma unroll
    for (int j = 0; j < kFragsN / 2; ++j) {
      ldmatrix_x4(b_addr + j * Tl::kFragRowsBytes, b_frag[buf][2 * j][0], b_frag[buf][2 * j][1],
                  b_frag[buf][2 * j + 1][0], b_frag[buf][2 * j + 1][1]);
    }
  };
  // Serpentine over n, so consecutive mma share an operand.
  auto multiply = [&](int buf) {
#pragma unroll
    for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
      for (int n = 0; n < kFragsN; ++n) {
        const int ni = (mi % 2 == 0) ? n : kFragsN - 1 - n;
        mma_16816<T>(acc[mi][ni], a_frag[buf][mi], b_frag[buf][ni]);
      }
    }
  };

  // ---- Pipeline (see the header comment).
  const int k_tiles = (K + Tl::kBlockK - 1) / Tl::kBlockK;
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) {
#pragma unroll
      for (int part = 0; part < kParts; ++part) copy_part(s, smem_base + s * Tl::kStageBytes, part);
    }
    cp_async_commit();
  }
  cp_async_wait<kStages - 2>();
  __syncthreads();
  wait_tile(0);

  std::uint32_t read_stage = smem_base;  // holds k-tile kt
  std::uint32_t write_stage = ring_last;  // receives k-tile kt + kStages - 1
  load_fragments(0, read_stage, 0);
  for (int kt = 0; kt < k_tiles; ++kt) {
    const bool copy_next = kt + kStages - 1 < k_tiles;
#pragma unroll
    for (int ks = 0; ks < kKSteps; ++ks) {
      if (ks == kKSteps - 1) {
        cp_async_wait<kStages - 2>();
        __syncthreads();
        read_stage = next_stage(read_stage);
        if (kt + 1 < k_tiles) wait_tile(kt + 1);
      }
      // The last k step of the last k-tile has nothing to prefetch: after the barrier above no
      // warp reads the ring again, which the staged epilogue relies on.
      if (ks < kKSteps - 1 || kt + 1 < k_tiles) {
        load_fragments((ks + 1) % 2, read_stage, (ks + 1) % kKSteps);
      }
      if (ks < kKSteps - 1) {
        if (copy_next) copy_part(kt + kStages - 1, write_stage, ks);
        if (ks == kKSteps - 2) {
          cp_async_commit();
          write_stage = next_stage(write_stage);
        }
      }
      multiply(ks % 2);
    }
  }
  // Groups still pending here are empty (k-tiles >= k_tiles are never copied).

  const int row0 = tile_m * Tl::kBlockM + warp_m * kWarpM;  // the warp's first row and column of C
  const int col0 = tile_n * Tl::kBlockN + warp_n * kWarpN;
  using Traits = ElementTraits<T>;
  if constexpr (Tl::kEpilogue == Epilogue::Staged) {
    // ---- Epilogue through shared memory: each warp rounds its 64 x 64 outputs into its own 8 KB
    // of the ring (free: every warp passed the last barrier after its last ldmatrix, and no copy
    // is pending), then stores whole 128-byte row segments, 16 bytes per lane, when N % 8 == 0
    // (every row then starts 16-byte aligned); otherwise, and past N, element by element.
    const std::uint32_t staging = smem_base + warp * (kWarpM * kStagingRowBytes);
#pragma unroll
    for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kFragsN; ++ni) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          st_shared_b32(staging + staging_store_offset(lane, mi, ni, half),
                        pack_pair<T>(acc[mi][ni][2 * half], acc[mi][ni][2 * half + 1]));
        }
      }
    }
    __syncwarp();
    const int col = col0 + staging_read_col(lane);
    const bool whole_chunk = N % kChunkElems == 0 && col < N;
#pragma unroll
    for (int p = 0; p < kStagingReads; ++p) {
      const int row = row0 + staging_read_row(lane, p);
      const uint4 v = ld_shared_v4(staging + staging_read_offset(lane, p));
      if (row < M) {
        T* dst = C + static_cast<std::size_t>(row) * N + col;
        if (whole_chunk) {
          *reinterpret_cast<uint4*>(dst) = v;
        } else {
          T e[kChunkElems];
          std::memcpy(e, &v, sizeof(v));
#pragma unroll
          for (int j = 0; j < kChunkElems; ++j) {
            if (col + j < N) dst[j] = e[j];
          }
        }
      }
    }
  } else {
    // ---- Epilogue from registers. Accumulator layout of one 16x8 tile: c0, c1 at row lane/4,
    // columns 2*(lane%4) + {0,1}; c2, c3 eight rows down. Each pair is one 4-byte store when N is
    // even (every pair is then aligned); with N odd, or at the last column, element by element.
    using Pair = typename Traits::Pair;
    const bool pair_ok = N % 2 == 0;
#pragma unroll
    for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int row = row0 + mi * kMmaM + half * 8 + lane / 4;
        if (row >= M) continue;
        T* c_row = C + static_cast<std::size_t>(row) * N;
#pragma unroll
        for (int ni = 0; ni < kFragsN; ++ni) {
          const int col = col0 + ni * kMmaN + (lane % 4) * 2;
          const float v0 = acc[mi][ni][2 * half];
          const float v1 = acc[mi][ni][2 * half + 1];
          if (pair_ok && col + 1 < N) {
            *reinterpret_cast<Pair*>(c_row + col) = Traits::from_floats(v0, v1);
          } else {
            if (col < N) c_row[col] = Traits::from_float(v0);
            if (col + 1 < N) c_row[col + 1] = Traits::from_float(v1);
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
  (void)map_a;
  (void)map_b;
  const T nan = tensor_core::ElementTraits<T>::nan();
  for (int i = tid; i < Tl::kBlockM * Tl::kBlockN; i += Tl::kThreads) {
    const int row = tile_m * Tl::kBlockM + i / Tl::kBlockN;
    const int col = tile_n * Tl::kBlockN + i % Tl::kBlockN;
    if (row < M && col < N) C[static_cast<std::size_t>(row) * N + col] = nan;
  }
#endif
}

}  // namespace archbench::kernels::matmul::tc
