// The tiling of the tensor-core convolution kernel (conv_tc.cu): block and warp tile
// sizes, the shared-memory layout, which copies each thread makes for a k-tile, and where each
// accumulator lands. Host and device code, so that suites/unit/kernels/conv/conv_loader_test.cpp can replay
// every thread's copies and stores on the CPU and check that they assemble exactly the im2col
// tile and cover the output tile once.
#pragma once

#include <cstdint>

#include "kernels/common/warp_tile.cuh"
#include "kernels/conv/conv_gather.cuh"

namespace archbench::kernels::conv::tc {

// The warp tile and k-tile of the tensor-core GEMM (kernels/common/warp_tile.cuh).
using warp_tile::kFragsM;
using warp_tile::kFragsN;
using warp_tile::kMmaK;
using warp_tile::kMmaM;
using warp_tile::kMmaN;
using warp_tile::kSmemStride;
using warp_tile::kWarpM;
using warp_tile::kWarpN;

constexpr int kBlockM = kTensorCoreBlockM;  // 128 output pixels per block
constexpr int kBlockK = kTensorCoreBlockK;  // 32 reduction elements per k-tile
constexpr int kStages = 4;
constexpr int kWarpsM = 2;
constexpr int kElementBytes = 2;  // f16 / bf16

static_assert(kBlockK == warp_tile::kBlockK, "the warp tile's k-tile");
static_assert(kBlockM == kWarpsM * kWarpM, "two warps down M");

// One tile variant: kBlockN output channels per block (128: 8 warps in 2 x 4; 64: 4 warps in
// 2 x 2), kChunk elements per cp.async copy (8 = 16 bytes; 4 = 8 bytes for C % 8 != 0). A stage
// of shared memory is the A tile (kBlockM rows x kSmemStride) followed by the B tile (kBlockN
// rows x kSmemStride), both k-contiguous.
template <int kBlockN, int kChunk>
struct Tiles {
  static constexpr int kWarpsN = kBlockN / kWarpN;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  // 2 x 256 or 3 x 128 threads per SM: both leave up to 128 (168) registers per thread.
  static constexpr int kMinBlocksPerSm = kThreads == 256 ? 2 : 3;
  static constexpr int kATileBytes = kBlockM * kSmemStride * kElementBytes;
  static constexpr int kStageBytes = (kBlockM + kBlockN) * kSmemStride * kElementBytes;
  static constexpr int kSmemBytes = kStages * kStageBytes;  // 81920 or 61440: needs opt-in
  static constexpr int kChunksPerRow = kBlockK / kChunk;     // copies per tile row
  static constexpr int kRowsPerPass = kThreads / kChunksPerRow;
  static constexpr int kPassBytes = kRowsPerPass * kSmemStride * kElementBytes;
  static constexpr int kACopies = kBlockM / kRowsPerPass;  // copies per thread per k-tile
  static constexpr int kBCopies = kBlockN / kRowsPerPass;

  static_assert(kBlockN == 128 || kBlockN == 64, "two tile widths");
  static_assert(kChunk == 8 || kChunk == 4, "16- or 8-byte copies");
  static_assert(kWarpsN * kWarpN == kBlockN, "warp grid covers the block tile");
  static_assert(kThreads % kChunksPerRow == 0, "whole rows per copy pass");
  static_assert(kACopies * kRowsPerPass == kBlockM && kBCopies * kRowsPerPass == kBlockN,
                "copy passes cover the tile rows");
};

// The copies of one thread: a k-tile row (32 elements) is kChunksPerRow copies; thread tid
// copies chunk tid % kChunksPerRow of tile rows tid / kChunksPerRow + i * kRowsPerPass, of A
// (the gathered input) and of B (the filter). Tiles must be loaded in increasing order, one
// load() per tile, starting at the tile given to the constructor: the cursor follows them.
// C % kChunk == 0 keeps a copy inside one tap, and R*S*C % kChunk == 0 keeps it entirely below
// or past the end of the reduction.
template <int kBlockN, int kChunk>
class TileLoader {
 public:
  using Cfg = Tiles<kBlockN, kChunk>;

  CONV_HD TileLoader(const ConvParams& p, int tile_m, int tile_n, int tid, int first_k_tile) {
    const int copy_row = tid / Cfg::kChunksPerRow;
    copy_k_ = (tid % Cfg::kChunksPerRow) * kChunk;
    dst_ = static_cast<std::uint32_t>((copy_row * kSmemStride + copy_k_) * kElementBytes);
    CONV_UNROLL
    for (int i = 0; i < Cfg::kACopies; ++i) {
      window_[i] = pixel_window(p, tile_m * kBlockM + copy_row + i * Cfg::kRowsPerPass);
    }
    CONV_UNROLL
    for (int i = 0; i < Cfg::kBCopies; ++i) {
      const int k_out = tile_n * kBlockN + copy_row + i * Cfg::kRowsPerPass;
      filter_offset_[i] = k_out < p.K ? k_out * p.Kg + copy_k_ : -1;
    }
    tap_.start(p, first_k_tile * kBlockK + copy_k_);
  }

  // Calls copy(filter, dst, offset, valid) for every copy of k-tile `k_tile` (global index):
  // `dst` is the byte offset in the stage, `offset` the element offset in x (filter = false)
  // or w (filter = true). valid = false means zero-fill (padding tap, row past M or K, k past
  // R*S*C); `offset` is then 0.
  template <typename Copy>
  CONV_HD void load(const ConvParams& p, int k_tile, Copy&& copy) {
    const bool k_ok = tap_.in_range(p);
    CONV_UNROLL
    for (int i = 0; i < Cfg::kACopies; ++i) {
      const bool ok = k_ok && tap_inside(p, window_[i], tap_.r, tap_.s);
      copy(false, dst_ + static_cast<std::uint32_t>(i * Cfg::kPassBytes),
           ok ? tap_offset(p, window_[i], tap_.r, tap_.s, tap_.c) : 0, ok);
    }
    const int j_offset = k_tile * kBlockK;
    const bool j_ok = j_offset + copy_k_ < p.Kg;
    CONV_UNROLL
    for (int i = 0; i < Cfg::kBCopies; ++i) {
      const bool ok = filter_offset_[i] >= 0 && j_ok;
      copy(true, dst_ + static_cast<std::uint32_t>(Cfg::kATileBytes + i * Cfg::kPassBytes),
           ok ? filter_offset_[i] + j_offset : 0, ok);
    }
    tap_.advance(p, kBlockK);
  }

 private:
  PixelWindow window_[Cfg::kACopies];
  int filter_offset_[Cfg::kBCopies];  // of (row, copy_k) in w; -1 for rows past K
  TapCursor tap_;
  int copy_k_;
  std::uint32_t dst_;  // byte offset of this thread's first copy in a stage
};

// Where accumulator element e (0..3 = c0..c3 of a 16x8 mma tile) of mma tile (mi, ni) of thread
// tid lands in the block tile: c0, c1 at row lane/4, columns 2*(lane%4) + {0,1}; c2, c3 eight
// rows further down; warp w owns rows (w / kWarpsN)*64.. and columns (w % kWarpsN)*32...
struct TilePosition {
  int row;
  int col;
};
template <int kBlockN>
CONV_HD TilePosition accumulator_position(int tid, int mi, int ni, int e) {
  constexpr int kWarpsN = kBlockN / kWarpN;
  const int lane = tid % 32;
  const int warp = tid / 32;
  return {(warp / kWarpsN) * kWarpM + mi * kMmaM + (e / 2) * 8 + lane / 4,
          (warp % kWarpsN) * kWarpN + ni * kMmaN + (lane % 4) * 2 + e % 2};
}

}  // namespace archbench::kernels::conv::tc
