#include "kernels/conv/conv_plan.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace archbench::kernels::conv {

size_t ConvPlan::workspace_bytes(const ConvDims& d) const {
  if (splits <= 1) return 0;
  return static_cast<size_t>(splits) * static_cast<size_t>(d.gemm_m()) * static_cast<size_t>(d.K) * sizeof(float);
}

std::string ConvPlan::str() const {
  std::string s = "m" + std::to_string(block_m) + "_n" + std::to_string(block_n) + "_k" + std::to_string(block_k);
  if (warps_k > 1) s += "_sk" + std::to_string(warps_k);
  return s + "_c" + std::to_string(chunk) + "_split" + std::to_string(splits) + "x" + std::to_string(k_tiles_per_split);
}

TensorCoreTile tile_of(const ConvPlan& plan) {
  return {plan.block_m, plan.block_n, plan.block_k, plan.warps_k, plan.chunk};
}

ConvPlan plan_with_tile(const TensorCoreTile& tile) {
  ConvPlan p;
  p.block_m = tile.block_m;
  p.block_n = tile.block_n;
  p.block_k = tile.block_k;
  p.warps_k = tile.warps_k;
  p.chunk = tile.chunk;
  return p;
}

SplitK plan_split_k(long long output_tiles, int k_tiles, long long resident_blocks, int min_k_tiles) {
  if (k_tiles < 1) throw std::invalid_argument("plan_split_k: the reduction has no k-tile");
  long long splits = 1;
  if (output_tiles > 0 && resident_blocks > output_tiles) {
    splits = resident_blocks / output_tiles;  // floor: one wave at most
    splits = std::min<long long>(splits, std::max(1, k_tiles / std::max(1, min_k_tiles)));
    splits = std::min<long long>(splits, kMaxSplits);
  }
  const auto per = static_cast<int>((k_tiles + splits - 1) / splits);
  return {(k_tiles + per - 1) / per, per};
}

void validate_own_conv(const ConvDims& d, const char* who) {
  const std::string prefix = std::string(who) + ": " + d.str() + ": ";
  if (!d.valid()) throw std::invalid_argument(prefix + "not a valid convolution shape");
  if (d.C % 4 != 0) {
    throw std::invalid_argument(prefix + "C must be a multiple of 4 (each copy moves 4 or 8 channels of one tap)");
  }
  constexpr auto kIntMax = static_cast<size_t>(std::numeric_limits<int>::max());
  if (d.input_numel() > kIntMax || d.output_numel() > kIntMax || d.filter_numel() > kIntMax) {
    throw std::invalid_argument(prefix + "a tensor has more than 2^31-1 elements");
  }
  if ((d.gemm_m() + kTensorCoreBlockM - 1) / kTensorCoreBlockM > 65535) {
    throw std::invalid_argument(prefix + "N*P*Q too large for the launch grid");
  }
}

void validate_plan(const ConvPlan& plan, const ConvDims& d, const char* who) {
  if (plan.block_k < 1) throw std::invalid_argument(std::string(who) + ": plan " + plan.str() + " has no k-tile width");
  const long long k_tiles = (d.gemm_k() + plan.block_k - 1) / plan.block_k;
  const long long splits = plan.splits;
  const long long per = plan.k_tiles_per_split;
  if (splits < 1 || splits > 65535 || per < 1 || (splits - 1) * per >= k_tiles || splits * per < k_tiles) {
    throw std::invalid_argument(std::string(who) + ": plan " + plan.str() + " does not cover the " +
                                std::to_string(k_tiles) + " k-tiles of " + d.str() + " exactly");
  }
}

ConvPlan tensor_core_tiles(const ConvDims& d, bool small) {
  validate_own_conv(d, "tensor_core_tiles");
  const long long macs = d.gemm_m() * d.K * d.gemm_k();
  const bool large = d.K % 160 == 0 && macs >= kLargeMinMacs;
  const bool k160 = d.K % 160 == 0 && (d.K % 128 != 0 || macs >= kK160MinMacs);
  const TensorCoreTile tile = d.C % 8 != 0 ? kTileC4
                              : large     ? (small ? kTileK160Small : kTileK160Large)
                              : k160      ? (small ? kTileK160Small : kTileK160)
                                          : (small ? kTileK128Small : kTileK128);
  ConvPlan p = plan_with_tile(tile);
  p.splits = 1;
  p.k_tiles_per_split = static_cast<int>((d.gemm_k() + p.block_k - 1) / p.block_k);
  return p;
}

ConvPlan with_split_k(ConvPlan tiles, const ConvDims& d, long long resident_blocks) {
  const long long output_tiles =
      ((d.gemm_m() + tiles.block_m - 1) / tiles.block_m) * ((d.K + tiles.block_n - 1) / tiles.block_n);
  const auto k_tiles = static_cast<int>((d.gemm_k() + tiles.block_k - 1) / tiles.block_k);
  const SplitK s = plan_split_k(output_tiles, k_tiles, resident_blocks, kMinKTilesPerSplit);
  tiles.splits = s.splits;
  tiles.k_tiles_per_split = s.k_tiles_per_split;
  return tiles;
}

}  // namespace archbench::kernels::conv
