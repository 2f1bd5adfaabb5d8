// The wgmma GEMM's tile choice, on the host: which tile width a problem gets. Pure C++ (tested
// without a GPU).
#pragma once

#include <array>

namespace archbench::kernels::matmul {

inline constexpr int kWgmmaTileM = 128;  // rows of C per CTA (two consumer warpgroups of 64)
inline constexpr int kWgmmaCluster = 2;  // CTAs per cluster, stacked along M, sharing each B tile
inline constexpr std::array<int, 3> kWgmmaTileWidths{256, 224, 192};

// The cluster tiles of an M x N problem at tile width `width`: ceil(M / 256) x ceil(N / width),
// what a persistent grid works through (times the split-K parts, where there are any).
[[nodiscard]] long long wgmma_cluster_tiles(int M, int N, int width);

// The width whose last wave is fullest: a persistent grid of `resident_clusters` clusters works
// through ceil(M / 256) x ceil(N / width) cluster tiles, each costing time in proportion to its width;
// the fewest waves x width wins, a tie goes to the wider tile (fewer loads of A per flop).
[[nodiscard]] int wgmma_tile_width(int M, int N, int resident_clusters);

}  // namespace archbench::kernels::matmul
