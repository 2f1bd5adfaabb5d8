// The tiling of the tensor-core convolution kernel (conv_tc.cu): one TileConfig per block-tile
// variant (block and warp tile sizes, pipeline depth), the swizzled shared-memory layout, which
// copies each thread makes for a k-tile, which shared rows each lane hands to ldmatrix, and where
// each accumulator lands. Host and device code, so that suites/unit/kernels/conv/conv_loader_test.cpp
// can replay every thread's copies, fragment loads and stores on the CPU and check that they
// assemble exactly the im2col tile, multiply it like the mma instructions do, and cover the output
// tile once.
#pragma once

#include <cstdint>

#include "kernels/common/ldmatrix_lanes.cuh"
#include "kernels/common/swizzle_atom.hpp"
#include "kernels/conv/conv_gather.cuh"

namespace archbench::kernels::conv::tc {

// mma.sync m16n8k16: a 16x16 A fragment (4 registers), a 16x8 B fragment (2), 4 fp32 results.
constexpr int kMmaM = 16;
constexpr int kMmaN = 8;
constexpr int kMmaK = 16;
constexpr int kElementBytes = 2;  // f16 / bf16
constexpr int kUnitBytes = 16;    // a swizzle unit: 8 elements, one ldmatrix row, one 16-byte copy

// One block-tile variant.
//   kBlockM x kBlockN outputs per block; k-tiles of kBlockK reduction elements.
//   kWarpsM x kWarpsN warps tile the output; each warp owns (kBlockM / kWarpsM) x (kBlockN /
//   kWarpsN) outputs. kWarpsK > 1 ("sliced K") repeats that grid kWarpsK times: group g takes
//   elements [g, g+1) * kBlockK / kWarpsK of every k-tile, and the groups' sums are added through
//   shared memory at the end. That gives a block more warps (latency hiding) without more output
//   tiles (the shapes with few tiles) and without more copies per output.
//   kStages k-tiles in the cp.async ring; kChunk elements per copy (8 = 16 bytes; 4 = 8 bytes
//   for C % 8 != 0); kMinBlocksPerSm for __launch_bounds__ (the register budget).
// Shared memory per stage: the A tile (kBlockM rows) then the B tile (kBlockN rows), each row the
// kBlockK elements of one output pixel (A) or output channel (B), without padding: the 16-byte
// units of a row are XOR-swizzled (unit_offset) so that neither ldmatrix nor the copies conflict.
template <int kBlockM_, int kBlockN_, int kBlockK_, int kWarpsM_, int kWarpsN_, int kWarpsK_, int kStages_,
          int kChunk_, int kMinBlocksPerSm_>
struct TileConfig {
  static constexpr int kBlockM = kBlockM_;
  static constexpr int kBlockN = kBlockN_;
  static constexpr int kBlockK = kBlockK_;
  static constexpr int kWarpsM = kWarpsM_;
  static constexpr int kWarpsN = kWarpsN_;
  static constexpr int kWarpsK = kWarpsK_;
  static constexpr int kStages = kStages_;
  static constexpr int kChunk = kChunk_;
  static constexpr int kMinBlocksPerSm = kMinBlocksPerSm_;

  static constexpr int kWarpM = kBlockM / kWarpsM;
  static constexpr int kWarpN = kBlockN / kWarpsN;
  static constexpr int kWarpK = kBlockK / kWarpsK;  // reduction elements per warp per k-tile
  static constexpr int kFragsM = kWarpM / kMmaM;
  static constexpr int kFragsN = kWarpN / kMmaN;
  static constexpr int kSteps = kWarpK / kMmaK;  // mma k-steps per warp per k-tile
  static constexpr int kWarpsMN = kWarpsM * kWarpsN;
  static constexpr int kThreads = 32 * kWarpsMN * kWarpsK;

  static constexpr int kRowBytes = kBlockK * kElementBytes;  // 64 or 128
  static constexpr int kUnitsPerRow = kRowBytes / kUnitBytes;  // 4 or 8
  // From the ldmatrix rows of A fragment mi (B fragment pair nj) to those of mi + 1 (nj + 1).
  static constexpr int kAFragmentBytes = kMmaM * kRowBytes;
  static constexpr int kBFragmentPairBytes = 2 * kMmaN * kRowBytes;
  static constexpr int kATileBytes = kBlockM * kRowBytes;
  static constexpr int kStageBytes = (kBlockM + kBlockN) * kRowBytes;
  static constexpr int kPipelineBytes = kStages * kStageBytes;
  // Sliced K: the fp32 sums of one warp group, for the others.
  static constexpr int kReduceBytes = kWarpsK > 1 ? kBlockM * kBlockN * 4 : 0;
  static constexpr int kSmemBytes = kPipelineBytes > kReduceBytes ? kPipelineBytes : kReduceBytes;
  // 16-byte copies: on sm_90 and newer the copy engine brings the B (filter) tile, completing on
  // one mbarrier per stage kept after the tiles. Its 128-byte (64-byte) swizzle is unit_offset's
  // for 128-byte (64-byte) rows when the tile starts on a 1024-byte boundary (the unit tests
  // compare them), hence the slack to align the stages.
  static constexpr bool kFilterTileCopy = kChunk == 8;
  static constexpr int kBarrierOffset = kSmemBytes;
  static constexpr int kLaunchSmemBytes =
      kFilterTileCopy ? kSmemBytes + copy_engine_ring_extra_bytes(kStages) : kSmemBytes;

  static constexpr int kCopiesPerRow = kBlockK / kChunk;
  static constexpr int kRowsPerPass = kThreads / kCopiesPerRow;
  static constexpr int kPassBytes = kRowsPerPass * kRowBytes;
  static constexpr int kACopies = kBlockM / kRowsPerPass;  // copies per thread per k-tile
  static constexpr int kBCopies = kBlockN / kRowsPerPass;

  static_assert(kBlockK == 32 || kBlockK == 64, "64- or 128-byte rows: the swizzle below");
  static_assert(kChunk == 8 || kChunk == 4, "16- or 8-byte copies");
  static_assert(kWarpsM * kWarpM == kBlockM && kWarpsN * kWarpN == kBlockN && kWarpsK * kWarpK == kBlockK,
                "the warp grid covers the block tile");
  static_assert(kFragsM * kMmaM == kWarpM && kFragsN * kMmaN == kWarpN, "mma tiles cover a warp tile");
  static_assert(kFragsN % 2 == 0, "one ldmatrix.x4 loads the B fragments of two n8 tiles");
  static_assert(kSteps * kMmaK == kWarpK && kSteps % 2 == 0,
                "an even number of k-steps per k-tile: the fragment double buffer alternates by step parity");
  static_assert(kThreads % kCopiesPerRow == 0 && kRowsPerPass % 8 == 0,
                "whole rows per copy pass, a multiple of the 8-row swizzle period");
  static_assert(kACopies * kRowsPerPass == kBlockM && kBCopies * kRowsPerPass == kBlockN,
                "copy passes cover the A and B rows");
  static_assert(kStages >= 3, "the ring keeps a k-tile in flight while one is read");
  static_assert(!kFilterTileCopy ||
                    (kATileBytes % kSwizzleAtomBytes == 0 && kStageBytes % kSwizzleAtomBytes == 0 && kBlockN <= 256),
                "a filter box starts a swizzle atom and fits one tensor copy");
};

// Byte offset of element (row, k) in a tile of this config: row-major rows of kRowBytes, the
// 16-byte unit k / 8 stored where ldmatrix::swizzled_unit puts it (kernels/common/ldmatrix_lanes.cuh).
template <class Cfg>
CONV_HD constexpr std::uint32_t unit_offset(int row, int k) {
  return static_cast<std::uint32_t>(row * Cfg::kRowBytes +
                                    ldmatrix::swizzled_unit(row, k / 8, Cfg::kUnitsPerRow) * kUnitBytes +
                                    (k % 8) * kElementBytes);
}

// Where warp w sits: output rows wm * kWarpM.., columns wn * kWarpN.., k slice wk of each k-tile.
struct WarpPosition {
  int wm;
  int wn;
  int wk;
};
template <class Cfg>
CONV_HD WarpPosition warp_position(int warp) {
  const int mn = warp % Cfg::kWarpsMN;
  return {mn / Cfg::kWarpsN, mn % Cfg::kWarpsN, warp / Cfg::kWarpsMN};
}

// The ldmatrix.x4 row addresses of lane tid % 32 for k-step `step` of a k-tile, as byte offsets
// in a stage; fragment mi of A adds mi * kAFragmentBytes, fragment pair nj of B nj *
// kBFragmentPairBytes (16 rows: a multiple of the 8-row swizzle period, so plain row offsets).
// The lane maps of the A fragment and of a B pair (rows n, k contiguous):
// kernels/common/ldmatrix_lanes.cuh.
struct FragmentOffsets {
  std::uint32_t a;
  std::uint32_t b;
};
template <class Cfg>
CONV_HD FragmentOffsets fragment_offsets(int tid, int step) {
  const int lane = tid % 32;
  const WarpPosition wp = warp_position<Cfg>(tid / 32);
  const int k0 = wp.wk * Cfg::kWarpK + step * kMmaK;
  const ldmatrix::RowUnit a = ldmatrix::a_fragment_lane(lane);
  const ldmatrix::RowUnit b = ldmatrix::b_pair_lane(lane);
  return {unit_offset<Cfg>(wp.wm * Cfg::kWarpM + a.row, k0 + a.unit * 8),
          static_cast<std::uint32_t>(Cfg::kATileBytes) + unit_offset<Cfg>(wp.wn * Cfg::kWarpN + b.row, k0 + b.unit * 8)};
}

// The copies of one thread: a k-tile row is kCopiesPerRow copies; thread tid copies chunk
// tid % kCopiesPerRow of tile rows tid / kCopiesPerRow + i * kRowsPerPass, of A (the gathered
// input) and of B (the filter). Tiles must be loaded in increasing order, one load() per tile,
// starting at the tile given to the constructor: the cursor follows them. C % kChunk == 0 keeps a
// copy inside one tap, and R*S*C % kChunk == 0 keeps it entirely below or past the end of the
// reduction.
template <class Cfg>
class TileLoader {
 public:
  CONV_HD TileLoader(const ConvParams& p, int tile_m, int tile_n, int tid, int first_k_tile) {
    const int copy_row = tid / Cfg::kCopiesPerRow;
    copy_k_ = (tid % Cfg::kCopiesPerRow) * Cfg::kChunk;
    // kRowsPerPass is a multiple of the swizzle period: every pass has the same unit order.
    dst_ = unit_offset<Cfg>(copy_row, copy_k_);
    CONV_UNROLL
    for (int i = 0; i < Cfg::kACopies; ++i) {
      const PixelWindow win = pixel_window(p, tile_m * Cfg::kBlockM + copy_row + i * Cfg::kRowsPerPass);
      h0_[i] = win.h0;
      w0_[i] = win.w0;
      // Offset of tap (0, 0) channel 0 (negative on the top/left padding; only used with a
      // valid tap). Rows past M keep 0: their h0 fails every bounds test.
      pixel_offset_[i] = win.h0 == kOutsideImage ? 0 : win.image_offset + (win.h0 * p.W + win.w0) * p.C;
    }
    // Filter rows copy_row + i * kRowsPerPass: offsets kRowsPerPass * Kg apart.
    filter_row_ = tile_n * Cfg::kBlockN + copy_row;
    filter_offset_ = filter_row_ < p.K ? filter_row_ * p.Kg + copy_k_ : 0;
    tap_.start(p, first_k_tile * Cfg::kBlockK + copy_k_);
  }

  // Calls copy(filter, dst, offset, valid) for every copy of k-tile `k_tile` (global index):
  // `dst` is the byte offset in the stage, `offset` the element offset in x (filter = false)
  // or w (filter = true). valid = false means zero-fill (padding tap, row past M or K, k past
  // R*S*C); `offset` is then 0.
  template <typename Copy>
  CONV_HD void load(const ConvParams& p, int k_tile, Copy&& copy) {
    const bool k_ok = tap_.in_range(p);
    // (r, s, c) relative to tap (0, 0) channel 0, the same for every pixel.
    const int tap_delta = (tap_.r * p.W + tap_.s) * p.C + tap_.c;
    CONV_UNROLL
    for (int i = 0; i < Cfg::kACopies; ++i) {
      const bool ok = k_ok && static_cast<unsigned>(h0_[i] + tap_.r) < static_cast<unsigned>(p.H) &&
                      static_cast<unsigned>(w0_[i] + tap_.s) < static_cast<unsigned>(p.W);
      copy(false, dst_ + static_cast<std::uint32_t>(i * Cfg::kPassBytes), ok ? pixel_offset_[i] + tap_delta : 0, ok);
    }
    const int j_offset = k_tile * Cfg::kBlockK;
    const bool j_ok = j_offset + copy_k_ < p.Kg;
    CONV_UNROLL
    for (int i = 0; i < Cfg::kBCopies; ++i) {
      const bool ok = j_ok && filter_row_ + i * Cfg::kRowsPerPass < p.K;
      copy(true, dst_ + static_cast<std::uint32_t>(Cfg::kATileBytes + i * Cfg::kPassBytes),
           ok ? filter_offset_ + i * Cfg::kRowsPerPass * p.Kg + j_offset : 0, ok);
    }
    tap_.advance(p, Cfg::kBlockK);
  }

 private:
  int h0_[Cfg::kACopies];
  int w0_[Cfg::kACopies];
  int pixel_offset_[Cfg::kACopies];
  int filter_row_;     // output channel of this thread's first B row
  int filter_offset_;  // of (that row, copy_k) in w (only used for rows below K)
  TapCursor tap_;
  int copy_k_;
  std::uint32_t dst_;  // byte offset of this thread's first copy in a stage
};

// Where accumulator element e (0..3 = c0..c3 of a 16x8 mma tile) of mma tile (mi, ni) of thread
// tid lands in the block tile: c0, c1 at row lane/4, columns 2*(lane%4) + {0,1}; c2, c3 eight
// rows further down; offset by the warp's position (every k group of a sliced-K block holds a
// partial sum of the same element).
struct TilePosition {
  int row;
  int col;
};
template <class Cfg>
CONV_HD TilePosition accumulator_position(int tid, int mi, int ni, int e) {
  const int lane = tid % 32;
  const WarpPosition wp = warp_position<Cfg>(tid / 32);
  return {wp.wm * Cfg::kWarpM + mi * kMmaM + (e / 2) * 8 + lane / 4,
          wp.wn * Cfg::kWarpN + ni * kMmaN + (lane % 4) * 2 + e % 2};
}

// The variants conv_tc.cu builds, in the order of kTensorCoreTiles (conv_plan.hpp):
// TileConfig<block_m, block_n, block_k, warps_m, warps_n, warps_k, stages, chunk, min blocks per
// SM>. Two blocks of 128 threads or one of 256 per SM: up to 255 registers per thread either way
// (a 64 x 80 warp tile needs about 250). Shared memory per block (kLaunchSmemBytes): 81, 91, 129, 145 and 48 KB.
using TileM128N128 = TileConfig<128, 128, 32, 2, 2, 1, 5, 8, 2>;
using TileM128N160 = TileConfig<128, 160, 32, 2, 2, 1, 5, 8, 2>;
using TileM128N128SlicedK = TileConfig<128, 128, 64, 2, 2, 2, 4, 8, 1>;
using TileM128N160SlicedK = TileConfig<128, 160, 64, 2, 2, 2, 4, 8, 1>;
using TileM128N64C4 = TileConfig<128, 64, 32, 2, 2, 1, 4, 4, 3>;

template <class... Cfgs>
struct ConfigList {};
using AllTiles = ConfigList<TileM128N128, TileM128N160, TileM128N128SlicedK, TileM128N160SlicedK, TileM128N64C4>;

template <class Cfg>
constexpr TensorCoreTile tile_shape() {
  return {Cfg::kBlockM, Cfg::kBlockN, Cfg::kBlockK, Cfg::kWarpsK, Cfg::kChunk};
}

template <class... Cfgs>
constexpr bool same_as_plan_tiles(ConfigList<Cfgs...>) {
  constexpr TensorCoreTile built[] = {tile_shape<Cfgs>()...};
  constexpr int n = static_cast<int>(sizeof(built) / sizeof(built[0]));
  if (n != static_cast<int>(sizeof(kTensorCoreTiles) / sizeof(kTensorCoreTiles[0]))) return false;
  for (int i = 0; i < n; ++i) {
    if (!same_tile(built[i], kTensorCoreTiles[i])) return false;
    if (built[i].block_m < kTensorCoreBlockM) return false;  // validate_own_conv's grid bound
  }
  return true;
}
static_assert(same_as_plan_tiles(AllTiles{}), "conv_tc builds exactly kTensorCoreTiles (conv_plan.hpp)");

}  // namespace archbench::kernels::conv::tc
