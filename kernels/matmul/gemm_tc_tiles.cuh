// The tiling of the tensor-core GEMM (gemm_tc.cu, body in gemm_tc_kernel.cuh) and the index
// maths its threads use: which 16-byte chunks of A and B each thread copies into shared memory
// and where they land, where each lane's ldmatrix rows start and how a warp stages its 64 x 64
// outputs for 16-byte stores. Host and device code, so that
// suites/unit/kernels/matmul/gemm_tc_tiles_test.cpp can replay a block on the CPU (copies,
// ldmatrix, mma fragments, epilogue), check it against a plain product and count bank conflicts.
#pragma once

#include <cstdint>

#include "kernels/common/ldmatrix_lanes.cuh"
#include "kernels/common/swizzle_atom.hpp"

#if defined(__CUDACC__)
#define GEMM_TC_HD __host__ __device__ __forceinline__
#else
#define GEMM_TC_HD inline
#endif

namespace archbench::kernels::matmul::tc {

constexpr int kMmaM = 16;  // mma.sync.m16n8k16
constexpr int kMmaN = 8;
constexpr int kMmaK = 16;
// Every warp owns 64 x 64 of C: 4 x 8 mma tiles, 128 fp32 accumulators per thread. Per 16-wide
// k step it loads 4 A and 4 B ldmatrix.x4 (4 KB of shared memory) for 32 mma: 128 bytes per mma,
// where a 64 x 32 warp tile reads 192. At the rate Hopper runs mma.sync that difference decides
// whether shared memory or the tensor cores set the pace.
constexpr int kWarpM = 64;
constexpr int kWarpN = 64;
constexpr int kFragsM = kWarpM / kMmaM;  // 4
constexpr int kFragsN = kWarpN / kMmaN;  // 8
constexpr int kElementBytes = 2;         // f16 / bf16
constexpr int kChunkBytes = 16;          // one cp.async, one ldmatrix row
constexpr int kChunkElems = kChunkBytes / kElementBytes;
constexpr int kGroupM = 8;  // row tiles per raster group (kernels/common/grouped_tile.cuh)

// The epilogue: Direct stores each accumulator pair (4 bytes) from registers; Staged rounds a
// warp's 64 x 64 outputs into shared memory first and writes them as whole 128-byte row segments
// (16 bytes per thread), a quarter of the store instructions.
enum class Epilogue { Direct, Staged };

// One tiling: a block of (BlockM / 64) x (BlockN / 64) warps owns BlockM x BlockN of C and walks
// K in k-tiles of BlockK through a ring of Stages shared-memory stages. A stage is the A tile
// (BlockM rows) then the B tile (BlockN rows), each row BlockK elements, k-contiguous.
//
// Shared rows are either XOR-swizzled (Swizzle = true: 16-byte chunk c of row r is stored at chunk
// position ldmatrix::swizzled_unit(r, c), rows exactly BlockK * 2 bytes) or padded by one chunk (rows of
// BlockK * 2 + 16 bytes). Both make the 8 rows one ldmatrix 8x8 matrix reads, and the 8 chunks a
// quarter-warp of cp.async writes, hit 8 different 16-byte bank groups; the swizzle needs no
// padding, so a 64-wide k-tile row is exactly one 128-byte line.
//
// The kernel compiles one Tiling (KernelTiling, below); the other arguments are the layouts
// a variant bench measured against it (below), replayed by the same CPU test.
template <int BlockM, int BlockN, int BlockK, int Stages, int MinBlocksPerSm, bool Swizzle = true,
          Epilogue Epi = Epilogue::Staged>
struct Tiling {
  static constexpr int kBlockM = BlockM;
  static constexpr int kBlockN = BlockN;
  static constexpr int kBlockK = BlockK;
  static constexpr int kStages = Stages;
  static constexpr int kMinBlocksPerSm = MinBlocksPerSm;  // __launch_bounds__; <= 8 warps per SM: 255 registers
  static constexpr bool kSwizzle = Swizzle;
  static constexpr Epilogue kEpilogue = Epi;

  static constexpr int kWarpsM = BlockM / kWarpM;
  static constexpr int kWarpsN = BlockN / kWarpN;
  static constexpr int kWarps = kWarpsM * kWarpsN;
  static constexpr int kThreads = kWarps * 32;
  static constexpr int kKSteps = BlockK / kMmaK;            // mma k steps per k-tile
  static constexpr int kChunksPerRow = BlockK / kChunkElems;  // 4 or 8
  static constexpr int kRowBytes = BlockK * kElementBytes + (Swizzle ? 0 : kChunkBytes);
  static constexpr int kATileBytes = BlockM * kRowBytes;
  static constexpr int kStageBytes = (BlockM + BlockN) * kRowBytes;
  static constexpr int kRingBytes = Stages * kStageBytes;
  // Copies: thread tid copies chunk tid % kChunksPerRow of tile rows tid / kChunksPerRow +
  // i * kRowsPerPass, i < kACopies of A then i < kBCopies of B; kChunksPerRow consecutive threads
  // read one row's contiguous BlockK * 2 bytes.
  static constexpr int kRowsPerPass = kThreads / kChunksPerRow;
  static constexpr int kPassBytes = kRowsPerPass * kRowBytes;
  static constexpr int kACopies = BlockM / kRowsPerPass;
  static constexpr int kBCopies = BlockN / kRowsPerPass;
  // ldmatrix: the next 16 rows (A: next mi tile; B: next pair of n8 tiles).
  static constexpr int kFragRowsBytes = 16 * kRowBytes;
  // Staged epilogue: each warp rounds its 64 x 64 outputs into its own 8 KB of the (then idle) ring.
  static constexpr int kStagingBytes = Epi == Epilogue::Staged ? kWarps * kWarpM * kWarpN * kElementBytes : 0;
  static constexpr int kSmemBytes = kRingBytes > kStagingBytes ? kRingBytes : kStagingBytes;
  // Swizzled tiles: on sm_90 and newer the copy engine fills each stage's A and B tiles (one 2-D
  // tensor copy each, completing on one mbarrier per stage kept after the ring). Its 64-byte
  // (128-byte) swizzle is chunk_offset's for 64-byte (128-byte) rows when the stage starts on a
  // 1024-byte boundary (the unit tests compare them), hence the slack to align the ring.
  static constexpr bool kTensorCopies = Swizzle;
  static constexpr int kBarrierOffset = kSmemBytes;
  static constexpr int kLaunchSmemBytes = kTensorCopies ? kSmemBytes + copy_engine_ring_extra_bytes(Stages) : kSmemBytes;

  static_assert(BlockM % kWarpM == 0 && BlockN % kWarpN == 0, "whole warp tiles");
  static_assert(BlockK == 32 || BlockK == 64, "a k-tile row is 4 or 8 chunks: 64 or 128 bytes");
  static_assert(kKSteps % 2 == 0, "fragment double buffer: k step 0 of every k-tile uses buffer 0");
  static_assert(Stages >= 3, "copies of k-tile kt+Stages-1 go to the stage k-tile kt-1 used");
  static_assert(kThreads % kChunksPerRow == 0 && kRowsPerPass % 8 == 0,
                "a pass covers whole rows and keeps each row's swizzle (period 8 rows)");
  static_assert(kACopies * kRowsPerPass == BlockM && kBCopies * kRowsPerPass == BlockN, "passes cover the tile");
  static_assert(kRowBytes % kChunkBytes == 0, "rows stay 16-byte aligned (cp.async, ldmatrix)");
  static_assert(!Swizzle || (kStageBytes % kSwizzleAtomBytes == 0 && kATileBytes % kSwizzleAtomBytes == 0),
                "swizzled tiles start a 1024-byte swizzle atom: at_k_step may XOR, the copy engine's pattern holds");
  static_assert(!kTensorCopies || (BlockM <= 256 && BlockN <= 256), "a tile is one tensor copy (box rows <= 256)");

  // Byte offset, inside an A or B tile, of 16-byte chunk `chunk` (k elements chunk*8..+7) of `row`
  // (the swizzle: kernels/common/ldmatrix_lanes.cuh).
  static GEMM_TC_HD std::uint32_t chunk_offset(int row, int chunk) {
    const int at = Swizzle ? ldmatrix::swizzled_unit(row, chunk, kChunksPerRow) : chunk;
    return static_cast<std::uint32_t>(row * kRowBytes + at * kChunkBytes);
  }

  // An ldmatrix row address for k step ks, from the lane's k-step-0 offset (a_lane_offset,
  // b_lane_offset, plus multiples of 16 rows and of the stage size). The lane's chunk at step ks
  // is 2*ks + h (h = 0 or 1), stored at (2*ks + h) ^ s = (h ^ s) ^ 2*ks: with the swizzle that is
  // an XOR of the offset with ks * 32 bytes (the row and stage parts of the offset are multiples
  // of the row size, so the XOR leaves them alone); padded rows just add ks * 32 bytes.
  static GEMM_TC_HD std::uint32_t at_k_step(std::uint32_t offset, int ks) {
    const auto step = static_cast<std::uint32_t>(ks * 2 * kChunkBytes);
    if constexpr (Swizzle) {
      return offset ^ step;
    } else {
      return offset + step;
    }
  }

  // ---- Copies (global -> shared), per thread.
  static GEMM_TC_HD int copy_row(int tid) { return tid / kChunksPerRow; }
  static GEMM_TC_HD int copy_chunk(int tid) { return tid % kChunksPerRow; }
  // Byte offset in the A (or B) tile of the thread's first copy; copy i adds i * kPassBytes.
  static GEMM_TC_HD std::uint32_t copy_offset(int tid) { return chunk_offset(copy_row(tid), copy_chunk(tid)); }

  // ---- Fragments (shared -> registers), per lane, at k step 0 of stage 0 (the lane maps:
  // kernels/common/ldmatrix_lanes.cuh). A tile mi adds mi * kFragRowsBytes; B pair j (n8 tiles
  // 2j, 2j+1) j * kFragRowsBytes.
  static GEMM_TC_HD std::uint32_t a_lane_offset(int warp_m, int lane) {
    const ldmatrix::RowUnit at = ldmatrix::a_fragment_lane(lane);
    return chunk_offset(warp_m * kWarpM + at.row, at.unit);
  }
  static GEMM_TC_HD std::uint32_t b_lane_offset(int warp_n, int lane) {
    const ldmatrix::RowUnit at = ldmatrix::b_pair_lane(lane);
    return static_cast<std::uint32_t>(kATileBytes) + chunk_offset(warp_n * kWarpN + at.row, at.unit);
  }
};

// ---- Staged epilogue, per warp: 64 rows of 128 bytes (64 outputs), 16-byte chunk c of row r at
// chunk position c ^ (r % 8). Accumulators (c0, c1) / (c2, c3) of mma tile (mi, ni) are one
// 4-byte pair at row mi*16 + half*8 + lane/4, columns ni*8 + 2*(lane%4): the 8 rows of one store
// instruction fall on 8 different chunk positions, so the 32 lanes hit 32 different banks.
constexpr int kStagingRowBytes = kWarpN * kElementBytes;  // 128
constexpr int kStagingReads = kWarpM * kStagingRowBytes / (32 * kChunkBytes);  // 16 per lane

GEMM_TC_HD std::uint32_t staging_store_offset(int lane, int mi, int ni, int half) {
  const int row = mi * kMmaM + half * 8 + lane / 4;
  return static_cast<std::uint32_t>(row * kStagingRowBytes + (ni ^ (row % 8)) * kChunkBytes + (lane % 4) * 4);
}
// Read-back pass p: lane l reads chunk l % 8 (columns 8*(l%8)..+7) of row 4*p + l/8, so each
// store instruction writes 4 whole 128-byte row segments of C.
GEMM_TC_HD int staging_read_row(int lane, int p) { return p * 4 + lane / 8; }
GEMM_TC_HD int staging_read_col(int lane) { return (lane % 8) * kChunkElems; }
GEMM_TC_HD std::uint32_t staging_read_offset(int lane, int p) {
  const int row = staging_read_row(lane, p);
  return static_cast<std::uint32_t>(row * kStagingRowBytes + ((lane % 8) ^ (row % 8)) * kChunkBytes);
}

// ---- The tiling gemm_tc.cu compiles: 256 x 128 per block, 8 warps (4 x 2) of 64 x 64, 32-wide
// k-tiles in a 4-stage ring, 96 KB of shared memory (97 KB with the copy engine's barriers and
// alignment; under the 99 KB per-block limit of 8.6 / 8.9 / 12.0), one block per SM. The taller block reads 3 KB of A and B per 64 x 64 x 32 of work where
// 128 x 128 reads 4 KB: less L2 traffic per mma at the large shapes.
// The best geometric mean against cuBLAS over the workload's GEMM shapes of the eleven layouts tried
// on the H200; the measurements: docs/kernel-choices.md.
using KernelTiling = Tiling<256, 128, 32, 4, 1>;

static_assert(KernelTiling::kLaunchSmemBytes <= 99 * 1024, "fits the per-block limit of every sm_80+ device");

}  // namespace archbench::kernels::matmul::tc
