#include "kernels/matmul/gemm_wgmma_tiling.hpp"

#include <algorithm>

namespace archbench::kernels::matmul {

long long wgmma_cluster_tiles(int M, int N, int width) {
  constexpr long long kClusterRows = kWgmmaTileM * kWgmmaCluster;
  return (static_cast<long long>(M) + kClusterRows - 1) / kClusterRows * ((static_cast<long long>(N) + width - 1) / width);
}

int wgmma_tile_width(int M, int N, int resident_clusters, const int* widths, size_t count) {
  const long long clusters = std::max(resident_clusters, 1);
  int best = 0;
  long long best_cost = 0;
  for (size_t i = 0; i < count; ++i) {  // widest first: a tie keeps it
    const int width = widths[i];
    const long long units = wgmma_cluster_tiles(M, N, width);
    const long long cost = (units + clusters - 1) / clusters * width;
    if (best == 0 || cost < best_cost) {
      best = width;
      best_cost = cost;
    }
  }
  return best;
}

}  // namespace archbench::kernels::matmul
