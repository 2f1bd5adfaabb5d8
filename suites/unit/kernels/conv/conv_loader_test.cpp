// Replays, on the CPU, every thread's copies of the own convolution kernels (the same
// TileLoader / SimtLoader code the kernels run) and checks that they assemble exactly the im2col
// tile of A and the filter tile of B for every block, k-tile and split-K slice, with zeros on the
// padding and past the ends, each element written once, in every tensor-core tile variant; that
// the swizzled layout is conflict-free; and that the warps' fragment loads and mma, emulated,
// multiply the block tile with each output covered once. Elements are identified by value:
// x[i] = i + 1, w[i] = -(i + 1).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_gather.cuh"
#include "kernels/conv/conv_plan.hpp"
#include "kernels/conv/conv_simt_tiles.cuh"
#include "kernels/conv/conv_tc_tiles.cuh"
#include "suites/unit/mma_16816_model.hpp"
#include "suites/unit/tensor_copy_swizzle.hpp"

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

// A plan with `splits` slices (or fewer: none empty) for the plan's block_k-wide k-tiles.
ConvPlan plan_for(const ConvDims& d, ConvPlan plan, int splits) {
  const auto k_tiles = static_cast<int>((d.gemm_k() + plan.block_k - 1) / plan.block_k);
  plan.k_tiles_per_split = (k_tiles + splits - 1) / splits;
  plan.splits = (k_tiles + plan.k_tiles_per_split - 1) / plan.k_tiles_per_split;
  return plan;
}

template <class Cfg>
std::string config_name() {
  const TensorCoreTile t = tc::tile_shape<Cfg>();
  return plan_with_tile(t).str();
}

template <class Cfg>
void replay_tensor_core_loads(const ConvDims& d, int splits) {
  SCOPED_TRACE(d.str() + " " + config_name<Cfg>() + " splits " + std::to_string(splits));
  const ConvPlan plan = plan_for(d, plan_with_tile(tc::tile_shape<Cfg>()), splits);
  const ConvParams p = make_conv_params(d, plan, "test");
  const int tiles_m = (p.M + Cfg::kBlockM - 1) / Cfg::kBlockM;
  const int tiles_n = (p.K + Cfg::kBlockN - 1) / Cfg::kBlockN;
  constexpr int kStageElems = Cfg::kStageBytes / tc::kElementBytes;
  std::vector<int> k_tile_seen(static_cast<size_t>(p.k_tiles), 0);

  for (int tile_m = 0; tile_m < tiles_m; ++tile_m) {
    for (int tile_n = 0; tile_n < tiles_n; ++tile_n) {
      for (int split = 0; split < plan.splits; ++split) {
        const SliceTiles slice = slice_tiles(p, split);
        std::vector<tc::TileLoader<Cfg>> loaders;
        for (int tid = 0; tid < Cfg::kThreads; ++tid) loaders.emplace_back(p, tile_m, tile_n, tid, slice.begin);
        for (int kt = slice.begin; kt < slice.begin + slice.count; ++kt) {
          if (tile_m == 0 && tile_n == 0) ++k_tile_seen[static_cast<size_t>(kt)];
          std::vector<long long> stage(kStageElems, kUnwritten);
          for (auto& loader : loaders) {
            loader.load(p, kt, [&](bool is_filter, std::uint32_t dst, int offset, bool valid) {
              ASSERT_EQ(dst % (Cfg::kChunk * tc::kElementBytes), 0u) << "misaligned copy";
              const std::uint32_t first = dst / tc::kElementBytes;
              ASSERT_LE(first + Cfg::kChunk, static_cast<std::uint32_t>(kStageElems));
              ASSERT_EQ(is_filter, dst >= static_cast<std::uint32_t>(Cfg::kATileBytes)) << "copy into the other tile";
              for (int e = 0; e < Cfg::kChunk; ++e) {
                long long& slot = stage[first + static_cast<std::uint32_t>(e)];
                ASSERT_EQ(slot, kUnwritten) << "element written twice";
                slot = !valid ? 0 : is_filter ? -(static_cast<long long>(offset) + e + 1) : offset + e + 1;
              }
            });
          }
          // Every tile element once, where unit_offset puts it, with the right value.
          for (int row = 0; row < Cfg::kBlockM + Cfg::kBlockN; ++row) {
            const bool is_a = row < Cfg::kBlockM;
            for (int col = 0; col < Cfg::kBlockK; ++col) {
              const std::uint32_t at = is_a ? tc::unit_offset<Cfg>(row, col)
                                            : Cfg::kATileBytes + tc::unit_offset<Cfg>(row - Cfg::kBlockM, col);
              const long long got = stage[at / tc::kElementBytes];
              const long long j = 1LL * kt * Cfg::kBlockK + col;
              const long long want = is_a ? im2col(d, 1LL * tile_m * Cfg::kBlockM + row, j)
                                          : filter(d, 1LL * tile_n * Cfg::kBlockN + (row - Cfg::kBlockM), j);
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

// The check shapes of the workload rows (ConvDims::check_dims), split, and ragged ones: k-tiles
// that straddle taps (C % 32 != 0), a ragged last k-tile, odd K, batch 3, no padding.
template <class Cfg>
void replay_tensor_core_shapes() {
  if constexpr (Cfg::kChunk == 8) {
    replay_tensor_core_loads<Cfg>(ConvDims{2, 10, 13, 320, 200, 3, 3, 1, 1}, 1);   // row 1
    replay_tensor_core_loads<Cfg>(ConvDims{2, 19, 25, 320, 200, 3, 3, 2, 1}, 4);   // row 5, stride 2
    replay_tensor_core_loads<Cfg>(ConvDims{2, 10, 13, 960, 200, 1, 1, 1, 0}, 3);   // row 6, 1x1
    replay_tensor_core_loads<Cfg>(ConvDims{2, 8, 8, 1280, 200, 3, 3, 1, 1}, 26);   // row 3, 26 slices
    replay_tensor_core_loads<Cfg>(ConvDims{3, 5, 7, 24, 75, 3, 3, 2, 1}, 2);
    replay_tensor_core_loads<Cfg>(ConvDims{1, 4, 4, 40, 9, 3, 3, 1, 0}, 3);  // no padding
    replay_tensor_core_loads<Cfg>(ConvDims{1, 17, 19, 16, 333, 3, 3, 1, 1}, 1);  // M = 323, K past two tiles
  } else {
    replay_tensor_core_loads<Cfg>(ConvDims{2, 10, 13, 4, 200, 3, 3, 1, 1}, 1);  // row 7, C = 4
    replay_tensor_core_loads<Cfg>(ConvDims{1, 6, 5, 12, 70, 3, 3, 1, 1}, 1);
    replay_tensor_core_loads<Cfg>(ConvDims{3, 5, 7, 20, 75, 3, 3, 2, 1}, 2);
  }
}

template <class... Cfgs>
void replay_all_tensor_core_loads(tc::ConfigList<Cfgs...>) {
  (replay_tensor_core_shapes<Cfgs>(), ...);
}

TEST(ConvLoader, TensorCoreTilesAreTheIm2colTiles) { replay_all_tensor_core_loads(tc::AllTiles{}); }

void replay_simt_loads(const ConvDims& d, int splits) {
  SCOPED_TRACE(d.str() + " splits " + std::to_string(splits));
  ConvPlan simt_tiles;
  simt_tiles.block_m = simt::kBlockM;
  simt_tiles.block_n = simt::kBlockN;
  simt_tiles.block_k = simt::kBlockK;
  simt_tiles.chunk = simt::kVector;
  const ConvPlan plan = plan_for(d, simt_tiles, splits);
  const ConvParams p = make_conv_params(d, plan, "test");
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

// unit_offset places the elements of a tile one to one, and neither the 8 rows of one ldmatrix
// matrix nor the 8 copies of one quarter-warp share a 16-byte bank group.
template <class Cfg>
void check_swizzle() {
  SCOPED_TRACE(config_name<Cfg>());
  constexpr int kRows = Cfg::kBlockM > Cfg::kBlockN ? Cfg::kBlockM : Cfg::kBlockN;
  std::vector<int> hits(static_cast<size_t>(kRows * Cfg::kRowBytes / tc::kElementBytes), 0);
  for (int row = 0; row < kRows; ++row) {
    for (int k = 0; k < Cfg::kBlockK; ++k) {
      const std::uint32_t at = tc::unit_offset<Cfg>(row, k);
      ASSERT_EQ(at % tc::kElementBytes, 0u);
      ASSERT_LT(at / tc::kElementBytes, hits.size());
      ++hits[at / tc::kElementBytes];
      if (k % 8 != 0) {
        EXPECT_EQ(at, tc::unit_offset<Cfg>(row, k - k % 8) + (k % 8) * tc::kElementBytes);
      }
    }
  }
  for (size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i], 1) << "element " << i;
  auto bank_group = [](std::uint32_t byte) { return (byte / tc::kUnitBytes) % 8; };
  for (int row0 = 0; row0 + 8 <= kRows; row0 += 8) {  // ldmatrix: rows row0..row0+7 at one k unit
    for (int k = 0; k < Cfg::kBlockK; k += 8) {
      std::vector<bool> used(8, false);
      for (int r = 0; r < 8; ++r) {
        const auto g = bank_group(tc::unit_offset<Cfg>(row0 + r, k));
        EXPECT_FALSE(used[g]) << "ldmatrix conflict at rows " << row0 << "+, k " << k;
        used[g] = true;
      }
    }
  }
  if constexpr (Cfg::kChunk == 8) {  // 16-byte copies: threads 8q..8q+7 of one pass
    for (int t0 = 0; t0 < Cfg::kThreads; t0 += 8) {
      std::vector<bool> used(8, false);
      for (int t = t0; t < t0 + 8; ++t) {
        const auto g = bank_group(tc::unit_offset<Cfg>(t / Cfg::kCopiesPerRow, (t % Cfg::kCopiesPerRow) * 8));
        EXPECT_FALSE(used[g]) << "copy conflict at threads " << t0 << "+";
        used[g] = true;
      }
    }
  }
}

// Emulates, on the CPU, what the warps of a block do with one k-tile in shared memory: every
// lane's ldmatrix.x4 row addresses (fragment_offsets plus the fragment strides), the registers
// ldmatrix hands out and the mma.sync m16n8k16 that consumes them, all as PTX defines them,
// summed over the k steps and the k groups of a sliced-K block. The sums land, through
// accumulator_position, on exactly the block tile of A x B^T, each output once per k group.
template <class Cfg>
void emulate_warp_tiles() {
  SCOPED_TRACE(config_name<Cfg>());
  // A stage holding A[row][k] = 1 + (row * 7 + k * 3) % 11, B[n][k] = 1 + (n * 5 + k) % 13 where
  // unit_offset puts them (the loader test checks that the copies put them there).
  std::vector<long long> stage(Cfg::kStageBytes / tc::kElementBytes, 0);
  auto a_value = [](int row, int k) { return 1LL + (row * 7 + k * 3) % 11; };
  auto b_value = [](int n, int k) { return 1LL + (n * 5 + k) % 13; };
  for (int k = 0; k < Cfg::kBlockK; ++k) {
    for (int row = 0; row < Cfg::kBlockM; ++row) stage[tc::unit_offset<Cfg>(row, k) / 2] = a_value(row, k);
    for (int n = 0; n < Cfg::kBlockN; ++n) stage[(Cfg::kATileBytes + tc::unit_offset<Cfg>(n, k)) / 2] = b_value(n, k);
  }
  // ldmatrix.x4: lanes 8i..8i+7 address the 8 rows of matrix i; register i of lane l holds
  // elements 2 (l % 4) and 2 (l % 4) + 1 of row l / 4 of matrix i.
  auto ldmatrix = [&](const std::vector<std::uint32_t>& row_address, int lane, int reg, int half) {
    const std::uint32_t at = row_address[static_cast<size_t>(8 * reg + lane / 4)] + (2 * (lane % 4) + half) * 2;
    return stage[at / 2];
  };
  std::vector<long long> out(static_cast<size_t>(Cfg::kBlockM * Cfg::kBlockN), 0);
  std::vector<int> hits(out.size(), 0);
  constexpr int kWarps = Cfg::kThreads / 32;
  for (int warp = 0; warp < kWarps; ++warp) {
    // acc[lane][mi][ni][e]
    std::vector<long long> acc(static_cast<size_t>(32 * Cfg::kFragsM * Cfg::kFragsN * 4), 0);
    auto acc_at = [&](int lane, int mi, int ni, int e) -> long long& {
      return acc[static_cast<size_t>(((lane * Cfg::kFragsM + mi) * Cfg::kFragsN + ni) * 4 + e)];
    };
    for (int step = 0; step < Cfg::kSteps; ++step) {
      std::vector<std::uint32_t> a_base(32), b_base(32);
      for (int lane = 0; lane < 32; ++lane) {
        const tc::FragmentOffsets f = tc::fragment_offsets<Cfg>(warp * 32 + lane, step);
        a_base[static_cast<size_t>(lane)] = f.a;
        b_base[static_cast<size_t>(lane)] = f.b;
      }
      for (int mi = 0; mi < Cfg::kFragsM; ++mi) {
        std::vector<std::uint32_t> a_rows(32);
        for (int lane = 0; lane < 32; ++lane) a_rows[static_cast<size_t>(lane)] = a_base[static_cast<size_t>(lane)] + mi * Cfg::kAFragmentBytes;
        for (int ni = 0; ni < Cfg::kFragsN; ++ni) {
          std::vector<std::uint32_t> b_rows(32);
          for (int lane = 0; lane < 32; ++lane) b_rows[static_cast<size_t>(lane)] = b_base[static_cast<size_t>(lane)] + (ni / 2) * Cfg::kBFragmentPairBytes;
          // The x4 of pair ni / 2 gives b0, b1 of n-tile 2j in registers 0, 1 and of 2j + 1 in 2, 3.
          const int b_reg0 = (ni % 2) * 2;
          long long a[32][4][2];
          long long b[32][2][2];
          for (int lane = 0; lane < 32; ++lane) {
            for (int half = 0; half < 2; ++half) {
              for (int reg = 0; reg < 4; ++reg) a[lane][reg][half] = ldmatrix(a_rows, lane, reg, half);
              for (int reg = 0; reg < 2; ++reg) b[lane][reg][half] = ldmatrix(b_rows, lane, b_reg0 + reg, half);
            }
          }
          long long tile[32][4] = {};
          testing_support::mma_16816(tile, a, b);
          for (int lane = 0; lane < 32; ++lane) {
            for (int e = 0; e < 4; ++e) acc_at(lane, mi, ni, e) += tile[lane][e];
          }
        }
      }
    }
    for (int lane = 0; lane < 32; ++lane) {
      for (int mi = 0; mi < Cfg::kFragsM; ++mi) {
        for (int ni = 0; ni < Cfg::kFragsN; ++ni) {
          for (int e = 0; e < 4; ++e) {
            const tc::TilePosition at = tc::accumulator_position<Cfg>(warp * 32 + lane, mi, ni, e);
            ASSERT_GE(at.row, 0);
            ASSERT_LT(at.row, Cfg::kBlockM);
            ASSERT_GE(at.col, 0);
            ASSERT_LT(at.col, Cfg::kBlockN);
            const auto i = static_cast<size_t>(at.row * Cfg::kBlockN + at.col);
            out[i] += acc_at(lane, mi, ni, e);
            ++hits[i];
            if (e % 2 == 0) {  // the epilogue stores (e, e+1) as one pair
              const tc::TilePosition next = tc::accumulator_position<Cfg>(warp * 32 + lane, mi, ni, e + 1);
              EXPECT_EQ(next.row, at.row);
              EXPECT_EQ(next.col, at.col + 1);
              EXPECT_EQ(at.col % 2, 0);
            }
          }
        }
      }
    }
  }
  for (int row = 0; row < Cfg::kBlockM; ++row) {
    for (int n = 0; n < Cfg::kBlockN; ++n) {
      long long want = 0;
      for (int k = 0; k < Cfg::kBlockK; ++k) want += a_value(row, k) * b_value(n, k);
      const auto i = static_cast<size_t>(row * Cfg::kBlockN + n);
      ASSERT_EQ(hits[i], Cfg::kWarpsK) << "row " << row << " col " << n;
      ASSERT_EQ(out[i], want) << "row " << row << " col " << n;
    }
  }
}

template <class... Cfgs>
void check_all_fragments(tc::ConfigList<Cfgs...>) {
  (check_swizzle<Cfgs>(), ...);
  (emulate_warp_tiles<Cfgs>(), ...);
}

TEST(ConvLoader, WarpTilesMultiplyTheBlockTileOnce) { check_all_fragments(tc::AllTiles{}); }

// On sm_90 and newer the filter tile comes from one tensor copy instead of the replayed cp.async
// copies: that copy must lay every element exactly where unit_offset (and so ldmatrix) expects it.
template <class Cfg>
void check_filter_tile_copy() {
  if constexpr (Cfg::kFilterTileCopy) {
    SCOPED_TRACE(tc::tile_shape<Cfg>().block_n);
    static_assert(Cfg::kATileBytes % 1024 == 0 && Cfg::kStageBytes % 1024 == 0);
    for (int row = 0; row < Cfg::kBlockN; ++row) {
      for (int k = 0; k < Cfg::kBlockK; ++k) {
        const auto dense = static_cast<std::uint32_t>(row * Cfg::kRowBytes + k * tc::kElementBytes);
        ASSERT_EQ(tc::unit_offset<Cfg>(row, k), testing_support::tensor_copy_swizzle(dense, Cfg::kRowBytes))
            << "row " << row << " k " << k;
      }
    }
  }
}

template <class... Cfgs>
void check_all_filter_tile_copies(tc::ConfigList<Cfgs...>) {
  (check_filter_tile_copy<Cfgs>(), ...);
}

TEST(ConvLoader, FilterTensorCopyLandsWhereTheFragmentsRead) { check_all_filter_tile_copies(tc::AllTiles{}); }

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
