// The wgmma GEMM's tile choice, on the host: which tile width a problem gets. Pure C++ (tested
// without a GPU).
#pragma once

#include <array>
#include <cstddef>

namespace archbench::kernels::matmul {

inline constexpr int kWgmmaTileM = 128;  // rows of C per CTA (two consumer warpgroups of 64)
inline constexpr int kWgmmaCluster = 2;  // CTAs per cluster, stacked along M, sharing each B tile
inline constexpr std::array<int, 3> kWgmmaTileWidths{256, 224, 192};
// The implicit-GEMM convolution's widths: 160 too, which divides the 320- and 640-channel outputs of
// SD's UNet exactly where 192-256 leave a tile mostly empty, and 128 and 96 for a convolution too
// small to fill the device that split-K cannot help (conv_wgmma_plan, kernels/conv/conv_wgmma_geometry.hpp).
inline constexpr std::array<int, 6> kConvWgmmaTileWidths{256, 224, 192, 160, 128, 96};

// How split-K's parts are added up (kernels/common/wgmma_gemm.cuh): fp32 partials in a workspace that
// a second kernel sums, or the CTAs of one cluster, one split each, through their shared memory.
enum class SplitReduction { Workspace, InCluster };
inline constexpr int kWgmmaMaxClusterSplits = 8;  // in the cluster: one CTA per part, 8 the portable cluster size

// The cluster tiles of an M x N problem at tile width `width`: ceil(M / 256) x ceil(N / width),
// what a persistent grid works through (times the split-K parts, where there are any).
[[nodiscard]] long long wgmma_cluster_tiles(int M, int N, int width);

// The width of `widths` (widest first) whose last wave is fullest: a persistent grid of
// `resident_clusters` clusters works through ceil(M / 256) x ceil(N / width) cluster tiles, each
// costing time in proportion to its width; the fewest waves x width wins, a tie goes to the wider
// tile (fewer loads of A per flop).
[[nodiscard]] int wgmma_tile_width(int M, int N, int resident_clusters, const int* widths, size_t count);
template <size_t kCount = kWgmmaTileWidths.size()>
[[nodiscard]] int wgmma_tile_width(int M, int N, int resident_clusters,
                                   const std::array<int, kCount>& widths = kWgmmaTileWidths) {
  return wgmma_tile_width(M, N, resident_clusters, widths.data(), kCount);
}

}  // namespace archbench::kernels::matmul
