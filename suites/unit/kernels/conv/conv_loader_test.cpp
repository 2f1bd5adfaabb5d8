// Replays, on the CPU, every thread's copies of the own convolution kernels (the same
// TileLoader / SimtLoader code the kernels run) and checks that they assemble exactly the im2col
// tile of A and the filter tile of B for every block, k-tile and split-K slice, with zeros on the
// padding and past the ends, each element written once; and that the tensor-core accumulators
// cover the output tile once. Elements are identified by value: x[i] = i + 1, w[i] = -(i + 1).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_gather.cuh"
#include "kernels/conv/conv_plan.hpp"
#include "kernels/conv/conv_simt_tiles.cuh"
#include "kernels/conv/conv_tc_tiles.cuh"

namespace archbench::kernels::conv {
namespace {

constexpr long long kUnwritten = 1LL << 40;

// The im2col element A[m, j] written independently of the kernels' cursor: x's value or 0.
long long im2col(const ConvDims& d, long long m, long long j) {
  if (m >= d.gemm_m() || j >= d.gemm_k()) return 0;
  const int q = static_cast<int>(m % d.Q());
  const int p = static_cast<int>(m / d.Q() % d.P());
  const int n = static_cast<int>(m / (1LL * d.P() * d.Q()));
  const int c = static_cast<int>(j % d.C);
  const int s = static_cast<int>(j / d.C % d.S);
  const int r = static_cast<int>(j / (1LL * d.C * d.S));
  const int h = p * d.stride - d.pad + r;
  const int w = q * d.stride - d.pad + s;
  if (h < 0 || h >= d.H || w < 0 || w >= d.W) return 0;
  return static_cast<long long>(activation_offset(ConvLayout::NHWC, n, h, w, c, d.H, d.W, d.C)) + 1;
}

// The filter element B[k, j] (KRSC rows): w's value or 0.
long long filter(const ConvDims& d, long long k, long long j) {
  if (k >= d.K || j >= d.gemm_k()) return 0;
  return -(k * d.gemm_k() + j + 1);
}

// A plan with `splits` slices (or fewer: none empty) for block_k-wide k-tiles.
ConvPlan plan_for(const ConvDims& d, int block_n, int chunk, int block_k, int splits) {
  const auto k_tiles = static_cast<int>((d.gemm_k() + block_k - 1) / block_k);
  ConvPlan plan;
  plan.block_n = block_n;
  plan.chunk = chunk;
  plan.k_tiles_per_split = (k_tiles + splits - 1) / splits;
  plan.splits = (k_tiles + plan.k_tiles_per_split - 1) / plan.k_tiles_per_split;
  return plan;
}

template <int kBlockN, int kChunk>
void replay_tensor_core_loads(const ConvDims& d, int splits) {
  using Cfg = tc::Tiles<kBlockN, kChunk>;
  SCOPED_TRACE(d.str() + " n" + std::to_string(kBlockN) + "_c" + std::to_string(kChunk) + " splits " +
               std::to_string(splits));
  const ConvPlan plan = plan_for(d, kBlockN, kChunk, tc::kBlockK, splits);
  const ConvParams p = make_conv_params(d, tc::kBlockK, plan, "test");
  const int tiles_m = (p.M + tc::kBlockM - 1) / tc::kBlockM;
  const int tiles_n = (p.K + kBlockN - 1) / kBlockN;
  constexpr int kStageElems = Cfg::kStageBytes / tc::kElementBytes;
  std::vector<int> k_tile_seen(static_cast<size_t>(p.k_tiles), 0);

  for (int tile_m = 0; tile_m < tiles_m; ++tile_m) {
    for (int tile_n = 0; tile_n < tiles_n; ++tile_n) {
      for (int split = 0; split < plan.splits; ++split) {
        const SliceTiles slice = slice_tiles(p, split);
        std::vector<tc::TileLoader<kBlockN, kChunk>> loaders;
        for (int tid = 0; tid < Cfg::kThreads; ++tid) loaders.emplace_back(p, tile_m, tile_n, tid, slice.begin);
        for (int kt = slice.begin; kt < slice.begin + slice.count; ++kt) {
          if (tile_m == 0 && tile_n == 0) ++k_tile_seen[static_cast<size_t>(kt)];
          std::vector<long long> stage(kStageElems, kUnwritten);
          for (auto& loader : loaders) {
            loader.load(p, kt, [&](bool is_filter, std::uint32_t dst, int offset, bool valid) {
              ASSERT_EQ(dst % (kChunk * tc::kElementBytes), 0u) << "misaligned copy";
              const std::uint32_t first = dst / tc::kElementBytes;
              ASSERT_LE(first + kChunk, static_cast<std::uint32_t>(kStageElems));
              for (int e = 0; e < kChunk; ++e) {
                long long& slot = stage[first + static_cast<std::uint32_t>(e)];
                ASSERT_EQ(slot, kUnwritten) << "element written twice";
                slot = !valid ? 0 : is_filter ? -(static_cast<long long>(offset) + e + 1) : offset + e + 1;
              }
            });
          }
          // Every tile element once, with the right value; the 8 padding columns never.
          for (int row = 0; row < tc::kBlockM + kBlockN; ++row) {
            const bool is_a = row < tc::kBlockM;
            for (int col = 0; col < tc::kSmemStride; ++col) {
              const long long got = stage[static_cast<size_t>(row * tc::kSmemStride + col)];
              if (col >= tc::kBlockK) {
                ASSERT_EQ(got, kUnwritten) << "padding column written, row " << row;
                continue;
              }
              const long long j = 1LL * kt * tc::kBlockK + col;
              const long long want = is_a ? im2col(d, 1LL * tile_m * tc::kBlockM + row, j)
                                          : filter(d, 1LL * tile_n * kBlockN + (row - tc::kBlockM), j);
              ASSERT_EQ(got, want) << (is_a ? "A" : "B") << " tile " << tile_m << "," << tile_n << " k-tile " << kt
                                   << " row " << row << " col " << col;
            }
          }
        }
      }
    }
  }
  for (int kt = 0; kt < p.k_tiles; ++kt) ASSERT_EQ(k_tile_seen[static_cast<size_t>(kt)], 1) << "k-tile " << kt;
}

TEST(ConvLoader, TensorCoreTilesAreTheIm2colTiles) {
  // Check shapes of the workload rows (ConvDims::check_dims), in their variants and split.
  replay_tensor_core_loads<64, 8>(ConvDims{2, 10, 13, 320, 200, 3, 3, 1, 1}, 1);   // row 1
  replay_tensor_core_loads<64, 8>(ConvDims{2, 19, 25, 320, 200, 3, 3, 2, 1}, 4);   // row 5, stride 2
  replay_tensor_core_loads<128, 8>(ConvDims{2, 10, 13, 960, 200, 1, 1, 1, 0}, 3);  // row 6, 1x1
  replay_tensor_core_loads<64, 4>(ConvDims{2, 10, 13, 4, 200, 3, 3, 1, 1}, 1);     // row 7, C = 4
  replay_tensor_core_loads<128, 8>(ConvDims{2, 8, 8, 1280, 200, 3, 3, 1, 1}, 26);  // row 3, 26 slices
  // k-tiles that straddle taps (C % 32 != 0), a ragged last k-tile, odd K, batch 3.
  replay_tensor_core_loads<128, 8>(ConvDims{3, 5, 7, 24, 75, 3, 3, 2, 1}, 2);
  replay_tensor_core_loads<64, 4>(ConvDims{1, 6, 5, 12, 70, 3, 3, 1, 1}, 1);
  replay_tensor_core_loads<64, 8>(ConvDims{1, 4, 4, 40, 9, 3, 3, 1, 0}, 3);  // no padding
}

void replay_simt_loads(const ConvDims& d, int splits) {
  SCOPED_TRACE(d.str() + " splits " + std::to_string(splits));
  const ConvPlan plan = plan_for(d, simt::kBlockN, simt::kVector, simt::kBlockK, splits);
  const ConvParams p = make_conv_params(d, simt::kBlockK, plan, "test");
  const int tiles_m = (p.M + simt::kBlockM - 1) / simt::kBlockM;
  const int tiles_n = (p.K + simt::kBlockN - 1) / simt::kBlockN;
  for (int tile_m = 0; tile_m < tiles_m; ++tile_m) {
    for (int tile_n = 0; tile_n < tiles_n; ++tile_n) {
      for (int split = 0; split < plan.splits; ++split) {
        const SliceTiles slice = slice_tiles(p, split);
        std::vector<simt::SimtLoader> loaders;
        for (int tid = 0; tid < simt::kThreads; ++tid) loaders.emplace_back(p, tile_m, tile_n, tid, slice.begin);
        for (int kt = slice.begin; kt < slice.begin + slice.count; ++kt) {
          // As[k][row], Bs[k][row] as the kernel stores them.
          std::vector<long long> a(static_cast<size_t>(simt::kBlockK * simt::kBlockM), kUnwritten);
          std::vector<long long> b(a.size(), kUnwritten);
          for (auto& loader : loaders) {
            loader.load(p, kt, [&](bool is_filter, int offset, bool valid) {
              ASSERT_EQ(offset % simt::kVector, 0) << "misaligned float4";
              for (int e = 0; e < simt::kVector; ++e) {
                long long& slot = (is_filter ? b : a)[static_cast<size_t>((loader.k() + e) * simt::kBlockM + loader.row())];
                ASSERT_EQ(slot, kUnwritten) << "element written twice";
                slot = !valid ? 0 : is_filter ? -(static_cast<long long>(offset) + e + 1) : offset + e + 1;
              }
            });
          }
          for (int k = 0; k < simt::kBlockK; ++k) {
            for (int row = 0; row < simt::kBlockM; ++row) {
              const long long j = 1LL * kt * simt::kBlockK + k;
              const auto at = static_cast<size_t>(k * simt::kBlockM + row);
              ASSERT_EQ(a[at], im2col(d, 1LL * tile_m * simt::kBlockM + row, j)) << "A k-tile " << kt << " k " << k << " row " << row;
              ASSERT_EQ(b[at], filter(d, 1LL * tile_n * simt::kBlockN + row, j)) << "B k-tile " << kt << " k " << k << " row " << row;
            }
          }
        }
      }
    }
  }
}

TEST(ConvLoader, SimtTilesAreTheIm2colTiles) {
  replay_simt_loads(ConvDims{2, 10, 13, 320, 200, 3, 3, 1, 1}, 1);   // row 1 check shape
  replay_simt_loads(ConvDims{2, 19, 25, 320, 200, 3, 3, 2, 1}, 5);   // row 5, split
  replay_simt_loads(ConvDims{2, 10, 13, 960, 200, 1, 1, 1, 0}, 3);   // row 6
  replay_simt_loads(ConvDims{2, 10, 13, 4, 200, 3, 3, 1, 1}, 1);     // row 7: 8-wide k-tiles span two taps
  replay_simt_loads(ConvDims{3, 5, 7, 12, 75, 3, 3, 2, 1}, 2);
}

template <int kBlockN>
void check_accumulator_cover() {
  using Cfg = tc::Tiles<kBlockN, 8>;
  std::vector<int> hits(static_cast<size_t>(tc::kBlockM * kBlockN), 0);
  for (int tid = 0; tid < Cfg::kThreads; ++tid) {
    for (int mi = 0; mi < tc::kFragsM; ++mi) {
      for (int ni = 0; ni < tc::kFragsN; ++ni) {
        for (int e = 0; e < 4; ++e) {
          const tc::TilePosition at = tc::accumulator_position<kBlockN>(tid, mi, ni, e);
          ASSERT_GE(at.row, 0);
          ASSERT_LT(at.row, tc::kBlockM);
          ASSERT_GE(at.col, 0);
          ASSERT_LT(at.col, kBlockN);
          ++hits[static_cast<size_t>(at.row * kBlockN + at.col)];
          if (e % 2 == 0) {  // the epilogue stores (e, e+1) as one pair
            const tc::TilePosition next = tc::accumulator_position<kBlockN>(tid, mi, ni, e + 1);
            EXPECT_EQ(next.row, at.row);
            EXPECT_EQ(next.col, at.col + 1);
            EXPECT_EQ(at.col % 2, 0);
          }
        }
      }
    }
  }
  for (size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i], 1) << "element " << i;
}

TEST(ConvLoader, AccumulatorsCoverTheOutputTileOnce) {
  check_accumulator_cover<128>();
  check_accumulator_cover<64>();
}

TEST(ConvLoader, SliceTilesCoverTheReduction) {
  ConvParams p{};
  p.k_tiles = 360;
  p.k_tiles_per_split = 14;  // 26 slices: 25 x 14 + 10
  int total = 0;
  for (int split = 0; split < 26; ++split) {
    const SliceTiles s = slice_tiles(p, split);
    EXPECT_EQ(s.begin, total);
    EXPECT_EQ(s.count, split < 25 ? 14 : 10);
    total += s.count;
  }
  EXPECT_EQ(total, 360);
  EXPECT_EQ(slice_tiles(p, 26).count, 0);
}

}  // namespace
}  // namespace archbench::kernels::conv
