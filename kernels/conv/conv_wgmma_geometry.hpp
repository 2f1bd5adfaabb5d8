// Which convolutions the Hopper implicit GEMM (conv_wgmma.cu) takes, and how it tiles them. Plain
// C++: the kernel's host code, the operators and the unit tests share it.
//
// The kernel is the wgmma GEMM (kernels/common/wgmma_gemm.cuh) with M = N*P*Q output pixels,
// N_gemm = K and K_gemm = R*S*C. Each tile of 128 (or 64) output pixels is one box of the NHWC input
// that the copy engine fetches per filter tap and 64-channel slice: box_q x box_p x box_n output
// positions (whole output rows, and whole images when an image has fewer pixels than a tile), read at
// the convolution's stride from (p0*stride + r - pad, q*stride + s - pad). Out-of-range rows and
// columns read as zeros: the padding costs nothing.
#pragma once

#include <array>
#include <string>

#include "kernels/conv/conv_dims.hpp"
#include "kernels/matmul/gemm_wgmma_tiling.hpp"

namespace archbench::kernels::conv {

inline constexpr int kWgmmaTilePixels = 128;   // output pixels per tile (the GEMM's M tile)
inline constexpr int kWgmmaSmallTilePixels = 64;  // or 64, with one consumer warpgroup
inline constexpr int kWgmmaChannelSlice = 64;  // input channels per k-step (128 bytes of 16-bit values)

struct ConvWgmmaTiles {
  int box_q = 0;  // output columns per tile: all Q of a row
  int box_p = 0;  // output rows per tile
  int box_n = 0;  // images per tile (> 1 only when P*Q < 128)
};

// Why `d` does not fit tiles of `pixels` output pixels ("" when it does): C a multiple of 64, K of 8,
// Q a divisor of `pixels`, pixels/Q rows dividing P (or whole images dividing N), stride at most 8,
// boxes of at most 256 input positions per axis.
[[nodiscard]] std::string conv_wgmma_unsupported(const ConvDims& d, int pixels = kWgmmaTilePixels);

// The tiling of a supported `d`; throws std::invalid_argument with the reason otherwise.
[[nodiscard]] ConvWgmmaTiles conv_wgmma_tiles(const ConvDims& d, int pixels = kWgmmaTilePixels);

// What the plan needs to know of the device: its SMs, and how many CTAs of the cluster-split kernel
// it holds at once in clusters of S CTAs (cluster_ctas[S], 2 <= S <= 8; 0: none, as without sm_90a).
// A cluster runs within one GPC, so fewer fit than SMs: on an H100 80GB HBM3, 120 CTAs in clusters
// of 4 or 8 and 117 of 3, against 132 of 2 (cudaOccupancyMaxActiveClusters).
struct ConvWgmmaDevice {
  int sms = 0;
  std::array<int, matmul::kWgmmaMaxClusterSplits + 1> cluster_ctas{};
};

// How a launch tiles a supported `d` on `device`: the tile's output pixels and width (output
// channels), the split of the reduction and where its parts are added up.
struct ConvWgmmaPlan {
  int pixels = kWgmmaTilePixels;  // output pixels per tile (or kWgmmaSmallTilePixels)
  int width = 0;   // one of matmul::kConvWgmmaTileWidths
  int splits = 1;  // > 1: split-K, added up as `reduction` says
  // Workspace: the parts' fp32 sums in a workspace of splits x N*P*Q x K floats that
  // conv_splitk_reduce adds up; InCluster: the parts are the CTAs of a cluster (wgmma_gemm.cuh).
  matmul::SplitReduction reduction = matmul::SplitReduction::Workspace;
  [[nodiscard]] size_t workspace_floats(const ConvDims& d) const {
    return splits > 1 && reduction == matmul::SplitReduction::Workspace
               ? static_cast<size_t>(splits) * d.output_numel()
               : 0;
  }
};

// First the width among the wide tiles (160-256, the GEMM's waves-times-width rule) and split-K by
// conv_tc's rule (plan_split_k: the grid times the parts fills the device at most once, each part at
// least kMinKTilesPerSplit 64-channel k-steps, none empty). Where that leaves no split, the narrow
// widths (128, 96) compete as well: a short reduction that cannot be split fills more SMs with
// narrower tiles. Never both in a workspace: split-K's fp32 partials and second kernel cost more
// than narrow tiles gain (docs/kernel-choices.md, "conv_wgmma: narrow tiles and split-K"). Where
// the parts fit one wave of clusters of their number, they are added up in the cluster instead, at
// the narrowest width that still fits: more CTAs for the same parts
// (docs/kernel-choices.md, "conv_wgmma: split-K in the cluster"). Last, a short reduction (at most
// 48 k-steps) that this leaves with a workspace split or a tenth of the SMs idle takes 64-pixel
// tiles: the width and parts (in the cluster) that fit one wave with the least k-steps x width
// per CTA, a workspace split replaced only by parts in the cluster (docs/kernel-choices.md,
// "conv_wgmma: 64-pixel tiles").
[[nodiscard]] ConvWgmmaPlan conv_wgmma_plan(const ConvDims& d, const ConvWgmmaDevice& device);

// Where a tile's A rows come from. A 1x1 convolution at stride 1 without padding reads input pixel m for
// output pixel m: its A is the NHWC input as it lies in memory, the [N*H*W, C] matrix, which the copy engine
// reads in 2-D boxes (a GEMM's). Every other shape takes the 4-D box of the input per filter tap. At the SD1.5
// 1x1 the 2-D box ran 15-17 % faster than the 4-D one for the same bytes (docs/kernel-choices.md, "conv_wgmma:
// the 1x1's A as a matrix").
enum class ConvWgmmaASource {
  Im2col,  // a 4-D box (channels, columns, rows, images) of the input per filter tap
  Matrix,  // a 2-D box of the [N*H*W, C] input matrix
};
[[nodiscard]] ConvWgmmaASource conv_wgmma_a_source(const ConvDims& d);

// The float64 check shape of a supported benchmark shape: the same C, R, S, stride and padding
// (the reduction length), batch 2, an 8 x 16 output per image (M = 256: two tiles) and at most
// 200 output channels (not a multiple of the 192-256-wide N tiles). ConvDims::check_dims' ragged
// 10 x 13 output does not tile into whole rows.
[[nodiscard]] ConvDims conv_wgmma_check_dims(const ConvDims& bench);

}  // namespace archbench::kernels::conv
