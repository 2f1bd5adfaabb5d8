// How the own convolution kernels cut one problem into blocks: the tile variant, the split of the
// reduction (split-K) and the limits they need. Pure arithmetic, unit-tested on the CPU; the
// launchers feed it the device's SM count and occupancy.
#pragma once

#include <cstddef>
#include <string>

#include "kernels/conv/conv_dims.hpp"

namespace archbench::kernels::conv {

// A plan for one launch. The output (GEMM M x K) is cut into block tiles of block_m x block_n;
// the reduction R*S*C into k-tiles of block_k, of which each of `splits` slices takes
// k_tiles_per_split consecutive ones. With splits > 1 every slice writes fp32 partial sums to a
// workspace of splits x M x K floats and a second kernel adds them up.
struct ConvPlan {
  int block_m = 128;  // output pixels per block tile
  int block_n = 128;  // output channels per block tile
  int block_k = 32;   // reduction elements per k-tile (32 or 64 on the tensor cores, 8 on the SIMT path)
  int warps_k = 1;    // tensor cores: warp groups that split every k-tile of one block ("sliced K")
  int chunk = 8;      // elements per cp.async copy (tensor cores): 8 (16 bytes) or 4 (8 bytes)
  int splits = 1;
  int k_tiles_per_split = 0;

  [[nodiscard]] size_t workspace_bytes(const ConvDims& d) const;
  // "m128_n160_k64_sk2_c8_split1x45": the tile (sk<warps_k> only when the k-tile is sliced), the
  // copy width, the split.
  [[nodiscard]] std::string str() const;
};

// Splits the reduction so that `output_tiles` block tiles x splits fill the `resident_blocks`
// slots of the device about once (never more than once: a second, partial wave of blocks would
// cost as much as the first), but leave every slice at least `min_k_tiles` k-tiles, so that the
// pipeline has something to overlap and the partial sums stay a small part of the traffic. The
// returned slices are all non-empty: splits = ceil(k_tiles / k_tiles_per_split).
struct SplitK {
  int splits = 1;
  int k_tiles_per_split = 0;
};
[[nodiscard]] SplitK plan_split_k(long long output_tiles, int k_tiles, long long resident_blocks, int min_k_tiles);

// A block-tile variant of the tensor-core kernel: block_m x block_n outputs, block_k-wide
// k-tiles, warps_k warp groups per k-tile, chunk-element copies. conv_tc.cu builds exactly the
// variants of kTensorCoreTiles (and checks that at compile time); the warp grid and pipeline
// depth of each are its own business.
struct TensorCoreTile {
  int block_m;
  int block_n;
  int block_k;
  int warps_k;
  int chunk;
};
// (A defaulted operator== would need C++20; the .cu files are C++17.)
constexpr bool same_tile(const TensorCoreTile& a, const TensorCoreTile& b) {
  return a.block_m == b.block_m && a.block_n == b.block_n && a.block_k == b.block_k && a.warps_k == b.warps_k &&
         a.chunk == b.chunk;
}
// 128 x 128 / 128 x 160: 4 warps of 64 x 64 / 64 x 80 outputs, two blocks per SM.
inline constexpr TensorCoreTile kTileM128N128{128, 128, 32, 1, 8};
inline constexpr TensorCoreTile kTileM128N160{128, 160, 32, 1, 8};
// The same output tiles with 8 warps: two groups split every 64-wide k-tile, one block per SM.
inline constexpr TensorCoreTile kTileM128N128SlicedK{128, 128, 64, 2, 8};
inline constexpr TensorCoreTile kTileM128N160SlicedK{128, 160, 64, 2, 8};
// 8-byte copies (C % 8 != 0, the 4-channel conv_in): 4 warps of 64 x 32.
inline constexpr TensorCoreTile kTileM128N64C4{128, 64, 32, 1, 4};
inline constexpr TensorCoreTile kTensorCoreTiles[] = {kTileM128N128, kTileM128N160, kTileM128N128SlicedK,
                                                      kTileM128N160SlicedK, kTileM128N64C4};

// The plan rule: which variant serves which shape.
//   * 16-byte copies need C % 8 == 0; the rest take kTileC4 (conv_in, C = 4).
//   * K a multiple of 160 and at least kLargeMinMacs multiply-adds (N*P*Q x K x R*S*C): kTileK160Large,
//     128 x 160 with 4 warps, two blocks per SM.
//   * K a multiple of 160, and either not of 128 (K = 320: two full 160-wide tiles where 128 would
//     leave half of a third one empty) or at least kK160MinMacs: kTileK160, sliced K (8 warps on one
//     output tile per SM).
//   * kTileK128 (sliced) otherwise.
// Each choice was the fastest of the variants on the H200 at the shapes it serves; the measurements,
// with what was tried and dropped: docs/kernel-choices.md.
inline constexpr TensorCoreTile kTileK128 = kTileM128N128SlicedK;
inline constexpr TensorCoreTile kTileK160 = kTileM128N160SlicedK;
inline constexpr TensorCoreTile kTileK160Large = kTileM128N160;
inline constexpr long long kLargeMinMacs = 20'000'000'000LL;
inline constexpr long long kK160MinMacs = 4'000'000'000LL;
inline constexpr TensorCoreTile kTileC4 = kTileM128N64C4;
// Devices that cannot hold the rule's variant (CC 8.6, 8.9 and 12.0 give a block at most 99 KB
// of shared memory; the sliced-K variants take 129 and 145 KB) run these (81 and 91 KB).
inline constexpr TensorCoreTile kTileK128Small = kTileM128N128;
inline constexpr TensorCoreTile kTileK160Small = kTileM128N160;

// The tile variant of the tensor-core kernel for a shape (the rule above), not yet split
// (splits = 1); with small = true the small-device one. Throws std::invalid_argument for shapes
// the own kernels do not support.
[[nodiscard]] ConvPlan tensor_core_tiles(const ConvDims& d, bool small = false);

// `tiles` with the reduction split (plan_split_k) for a device that holds `resident_blocks`
// blocks of the variant at once (SMs x blocks per SM), for its block_m x block_n block tiles and
// block_k-wide k-tiles.
[[nodiscard]] ConvPlan with_split_k(ConvPlan tiles, const ConvDims& d, long long resident_blocks);

// The smallest block_m of the tensor-core variants: it bounds the grid's row tiles.
constexpr int kTensorCoreBlockM = 128;
constexpr int kSimtBlockM = 128;
constexpr int kSimtBlockN = 128;
constexpr int kSimtBlockK = 8;
// A slice of the reduction is at least this many k-tiles (8 pipeline steps: 256 or 512 reduction
// elements on the tensor cores, 64 on the SIMT path); at most kMaxSplits slices.
constexpr int kMinKTilesPerSplit = 8;
constexpr int kMaxSplits = 64;

// The shapes the own kernels handle, or std::invalid_argument saying why not: a valid shape
// (ConvDims::valid), C % 4 == 0 (every copy moves 4 or 8 channels of one filter tap), and sizes
// whose flat offsets fit in 32-bit int (N*H*W*C, N*P*Q*K, K*R*S*C) and whose grid fits
// (at most 65535 row tiles). `who` prefixes the message.
void validate_own_conv(const ConvDims& d, const char* who);

// A plan fits a shape when its slices cover the shape's k-tiles exactly, none empty:
// (splits - 1) * k_tiles_per_split < k_tiles <= splits * k_tiles_per_split, with
// k_tiles = ceil(R*S*C / plan.block_k). std::invalid_argument otherwise.
void validate_plan(const ConvPlan& plan, const ConvDims& d, const char* who);

// The tile fields of a plan, and a plan (not yet split) with a variant's tile.
[[nodiscard]] TensorCoreTile tile_of(const ConvPlan& plan);
[[nodiscard]] ConvPlan plan_with_tile(const TensorCoreTile& tile);

}  // namespace archbench::kernels::conv
