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
  return "n" + std::to_string(block_n) + "_c" + std::to_string(chunk) + "_split" + std::to_string(splits) + "x" +
         std::to_string(k_tiles_per_split);
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

void validate_plan(const ConvPlan& plan, const ConvDims& d, int block_k, const char* who) {
  const long long k_tiles = (d.gemm_k() + block_k - 1) / block_k;
  const long long splits = plan.splits;
  const long long per = plan.k_tiles_per_split;
  if (splits < 1 || splits > 65535 || per < 1 || (splits - 1) * per >= k_tiles || splits * per < k_tiles) {
    throw std::invalid_argument(std::string(who) + ": plan " + plan.str() + " does not cover the " +
                                std::to_string(k_tiles) + " k-tiles of " + d.str() + " exactly");
  }
}

ConvPlan tensor_core_tiles(const ConvDims& d) {
  validate_own_conv(d, "tensor_core_tiles");
  ConvPlan p;
  p.chunk = d.C % 8 == 0 ? 8 : 4;
  p.block_n = d.K % 128 == 0 && p.chunk == 8 ? 128 : 64;
  p.splits = 1;
  p.k_tiles_per_split = static_cast<int>((d.gemm_k() + kTensorCoreBlockK - 1) / kTensorCoreBlockK);
  return p;
}

ConvPlan with_split_k(ConvPlan tiles, const ConvDims& d, int block_m, int block_k, long long resident_blocks) {
  const long long output_tiles = ((d.gemm_m() + block_m - 1) / block_m) * ((d.K + tiles.block_n - 1) / tiles.block_n);
  const auto k_tiles = static_cast<int>((d.gemm_k() + block_k - 1) / block_k);
  const SplitK s = plan_split_k(output_tiles, k_tiles, resident_blocks, kMinKTilesPerSplit);
  tiles.splits = s.splits;
  tiles.k_tiles_per_split = s.k_tiles_per_split;
  return tiles;
}

}  // namespace archbench::kernels::conv
