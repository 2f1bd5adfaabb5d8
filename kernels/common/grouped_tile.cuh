// The order in which the blocks of a tiled GEMM-shaped kernel (GEMM, implicit-GEMM convolution)
// visit their output tiles.
#pragma once

namespace archbench::kernels {

// The output tile a block computes: row tile m, column tile n.
struct BlockTile {
  int m;
  int n;
};

// Maps the block index (x: column tile, y: row tile) so that consecutive blocks cover kGroup row
// tiles of one column tile before moving to the next column: the blocks resident at one time then
// share operand tiles through L2 instead of each streaming its own. blockIdx.z is untouched.
template <int kGroup>
__device__ __forceinline__ BlockTile grouped_tile() {
  const int tiles_n = static_cast<int>(gridDim.x);
  const int tiles_m = static_cast<int>(gridDim.y);
  const int block = static_cast<int>(blockIdx.y) * tiles_n + static_cast<int>(blockIdx.x);
  const int blocks_per_group = kGroup * tiles_n;
  const int first_m = (block / blocks_per_group) * kGroup;
  const int group_rows = min(tiles_m - first_m, kGroup);
  const int in_group = block % blocks_per_group;
  return {first_m + in_group % group_rows, in_group / group_rows};
}

}  // namespace archbench::kernels
