// How the own convolution kernels cut one problem into blocks: the tile variant, the split of the
// reduction (split-K) and the limits they need. Pure arithmetic, unit-tested on the CPU; the
// launchers feed it the device's SM count and occupancy.
#pragma once

#include <cstddef>
#include <string>

#include "kernels/conv/conv_dims.hpp"

namespace archbench::kernels::conv {

// A plan for one launch. The output (GEMM M x K) is cut into block tiles of 128 x block_n; the
// reduction R*S*C into k-tiles (32 wide on the tensor cores, 8 on the SIMT path), of which each
// of `splits` slices takes k_tiles_per_split consecutive ones. With splits > 1 every slice writes
// fp32 partial sums to a workspace of splits x M x K floats and a second kernel adds them up.
struct ConvPlan {
  int block_n = 128;  // output channels per block tile: 128 or 64 (tensor cores); 128 (SIMT)
  int chunk = 8;      // elements per cp.async copy (tensor cores): 8 (16 bytes) or 4 (8 bytes)
  int splits = 1;
  int k_tiles_per_split = 0;

  [[nodiscard]] size_t workspace_bytes(const ConvDims& d) const;
  [[nodiscard]] std::string str() const;  // "n128_c8_split6x60"
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

// Tile variant of the tensor-core kernel for a shape: 16-byte copies when C % 8 == 0, else
// 8-byte copies (C % 4 == 0: the 4-channel conv_in); 128 output channels per block when K is a
// multiple of 128 (640, 1280) and C % 8 == 0, else 64 (K = 320 would otherwise leave half of its
// third 128-wide tile empty). So three variants exist: n128_c8, n64_c8, n64_c4. Not yet split
// (splits = 1). Throws std::invalid_argument for shapes the own kernels do not support.
[[nodiscard]] ConvPlan tensor_core_tiles(const ConvDims& d);

// `tiles` with the reduction split (plan_split_k) for a device that holds `resident_blocks`
// blocks of the variant at once (SMs x blocks per SM); block_m x tiles.block_n block tiles,
// block_k-wide k-tiles.
[[nodiscard]] ConvPlan with_split_k(ConvPlan tiles, const ConvDims& d, int block_m, int block_k,
                                    long long resident_blocks);

constexpr int kTensorCoreBlockM = 128;
constexpr int kTensorCoreBlockK = 32;
constexpr int kSimtBlockM = 128;
constexpr int kSimtBlockN = 128;
constexpr int kSimtBlockK = 8;
// A slice of the reduction is at least this many k-tiles (8 pipeline steps: 256 reduction
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
// k_tiles = ceil(R*S*C / block_k). std::invalid_argument otherwise.
void validate_plan(const ConvPlan& plan, const ConvDims& d, int block_k, const char* who);

}  // namespace archbench::kernels::conv
