// Replays blocks of the tensor-core GEMM (kernels/matmul/gemm_tc_kernel.cuh) on the CPU with the
// index maths the kernel runs (gemm_tc_tiles.cuh): every thread's cp.async copies into the ring,
// every lane's ldmatrix.x4 (emulated as PTX defines it), the mma.sync.m16n8k16 fragments, and the
// epilogue (staged through shared memory or direct); the result must be the plain product, with
// zeros past the matrix edges, each output written once and nothing outside the matrix. It also
// counts shared-memory bank conflicts: none for ldmatrix, for the staging, and (swizzled rows)
// for the copies.
// Elements are small integers, so every sum is exact.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "kernels/matmul/gemm_tc_tiles.cuh"
#include "suites/unit/mma_16816_model.hpp"
#include "suites/unit/tensor_copy_swizzle.hpp"

namespace archbench::kernels::matmul::tc {
namespace {

constexpr int kUnwritten = 1 << 30;

struct Operands {
  int M, N, K;
  std::vector<int> a, b;  // A[M][K], B[N][K]
  [[nodiscard]] int c(int row, int col) const {
    int sum = 0;
    for (int k = 0; k < K; ++k) sum += a[static_cast<size_t>(row * K + k)] * b[static_cast<size_t>(col * K + k)];
    return sum;
  }
};

Operands make_operands(int M, int N, int K) {
  Operands o{M, N, K, std::vector<int>(static_cast<size_t>(M * K)), std::vector<int>(static_cast<size_t>(N * K))};
  for (size_t i = 0; i < o.a.size(); ++i) o.a[i] = static_cast<int>((i * 7 + 3) % 11) - 5;
  for (size_t i = 0; i < o.b.size(); ++i) o.b[i] = static_cast<int>((i * 5 + 1) % 13) - 6;
  return o;
}

// 8 addresses of 16-byte accesses served in one shared-memory wavefront: conflict-free when they
// fall on 8 different 16-byte bank groups (4 banks each).
void expect_distinct_bank_groups(const std::uint32_t (&addr)[8], const char* what) {
  std::set<std::uint32_t> groups;
  for (std::uint32_t a : addr) {
    ASSERT_EQ(a % 16, 0u) << what << ": misaligned";
    groups.insert((a / 16) % 8);
  }
  EXPECT_EQ(groups.size(), 8u) << what << ": bank conflict";
}

// ldmatrix.x4: lanes 8i..8i+7 give the row addresses of 8x8 matrix i; register i of lane l
// receives row l/4, elements 2*(l%4) and 2*(l%4)+1 of matrix i. smem holds one value per 2 bytes.
void ldmatrix_x4(const std::vector<int>& smem, const std::uint32_t (&addr)[32], int (&regs)[32][4][2]) {
  for (int i = 0; i < 4; ++i) {
    std::uint32_t rows[8];
    for (int r = 0; r < 8; ++r) rows[r] = addr[8 * i + r];
    expect_distinct_bank_groups(rows, "ldmatrix");
  }
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < 4; ++i) {
      const std::uint32_t row = addr[8 * i + lane / 4];
      for (int e = 0; e < 2; ++e) regs[lane][i][e] = smem.at(row / 2 + static_cast<std::uint32_t>(2 * (lane % 4) + e));
    }
  }
}

// One block of the kernel replayed on the host, element by element: the copies of each k-tile into
// its stage, the fragments and mma steps read from it, and the epilogue's stores into c.
template <class Tl>
struct BlockReplay {
  const Operands& o;
  int tile_m, tile_n;
  int M = o.M, N = o.N, K = o.K;
  std::vector<int> smem = std::vector<int>(static_cast<size_t>(Tl::kSmemBytes / 2), kUnwritten);
  // acc[warp][mi][ni][lane][4]
  std::vector<int> acc = std::vector<int>(static_cast<size_t>(Tl::kWarps * kFragsM * kFragsN * 32 * 4), 0);

  int (*acc_at(int warp, int mi, int ni))[4] {
    return reinterpret_cast<int(*)[4]>(&acc[static_cast<size_t>(((warp * kFragsM + mi) * kFragsN + ni) * 32 * 4)]);
  }

  // The copies of k-tile kt into `stage`, as every thread makes them.
  void copy_tile(int kt, std::uint32_t stage) {
    std::fill(smem.begin() + stage / 2, smem.begin() + (stage + Tl::kStageBytes) / 2, kUnwritten);
    for (int copy = 0; copy < Tl::kACopies + Tl::kBCopies; ++copy) {
      const bool is_a = copy < Tl::kACopies;
      const int i = is_a ? copy : copy - Tl::kACopies;
      for (int warp = 0; warp < Tl::kWarps; ++warp) {
        std::uint32_t dst[32];
        for (int lane = 0; lane < 32; ++lane) {
          const int tid = warp * 32 + lane;
          dst[lane] = stage + (is_a ? 0u : static_cast<std::uint32_t>(Tl::kATileBytes)) + Tl::copy_offset(tid) +
                      static_cast<std::uint32_t>(i * Tl::kPassBytes);
          const int row = (is_a ? tile_m * Tl::kBlockM : tile_n * Tl::kBlockN) + Tl::copy_row(tid) + i * Tl::kRowsPerPass;
          const int k = kt * Tl::kBlockK + Tl::copy_chunk(tid) * kChunkElems;
          const bool ok = row < (is_a ? M : N) && k < K;
          for (int e = 0; e < kChunkElems; ++e) {
            int& slot = smem.at(dst[lane] / 2 + static_cast<std::uint32_t>(e));
            ASSERT_EQ(slot, kUnwritten) << "element written twice";
            slot = ok ? (is_a ? o.a : o.b)[static_cast<size_t>(row * K + k + e)] : 0;
          }
        }
        // Padded 80-byte rows put two rows of a quarter-warp's copies on one bank group; the
        // swizzle does not.
        for (int q = 0; q < 4 && Tl::kSwizzle; ++q) {
          std::uint32_t quarter[8];
          for (int l = 0; l < 8; ++l) quarter[l] = dst[8 * q + l];
          expect_distinct_bank_groups(quarter, "cp.async");
        }
      }
    }
    // Each stage element written once; with padded rows the padding chunk never.
    int written = 0;
    for (std::uint32_t e = stage / 2; e < (stage + Tl::kStageBytes) / 2; ++e) written += smem[e] != kUnwritten;
    ASSERT_EQ(written, (Tl::kBlockM + Tl::kBlockN) * Tl::kBlockK);

  }

  // The fragments and mma steps of every warp and k step, at the kernel's addresses.
  void mma_tile(std::uint32_t stage) {
  for (int warp = 0; warp < Tl::kWarps; ++warp) {
    const int warp_m = warp / Tl::kWarpsN;
    const int warp_n = warp % Tl::kWarpsN;
    for (int ks = 0; ks < Tl::kKSteps; ++ks) {
      int a[kFragsM][32][4][2];
      int b[kFragsN][32][2][2];
      for (int mi = 0; mi < kFragsM; ++mi) {
        std::uint32_t addr[32];
        for (int lane = 0; lane < 32; ++lane) {
          addr[lane] = stage + Tl::at_k_step(Tl::a_lane_offset(warp_m, lane), ks) +
                       static_cast<std::uint32_t>(mi * Tl::kFragRowsBytes);
        }
        ldmatrix_x4(smem, addr, a[mi]);
      }
      for (int j = 0; j < kFragsN / 2; ++j) {
        std::uint32_t addr[32];
        for (int lane = 0; lane < 32; ++lane) {
          addr[lane] = stage + Tl::at_k_step(Tl::b_lane_offset(warp_n, lane), ks) +
                       static_cast<std::uint32_t>(j * Tl::kFragRowsBytes);
        }
        int regs[32][4][2];
        ldmatrix_x4(smem, addr, regs);
        for (int lane = 0; lane < 32; ++lane) {
          for (int e = 0; e < 2; ++e) {
            b[2 * j][lane][0][e] = regs[lane][0][e];
            b[2 * j][lane][1][e] = regs[lane][1][e];
            b[2 * j + 1][lane][0][e] = regs[lane][2][e];
            b[2 * j + 1][lane][1][e] = regs[lane][3][e];
          }
        }
      }
      for (int mi = 0; mi < kFragsM; ++mi) {
        for (int ni = 0; ni < kFragsN; ++ni) {
          for (int lane = 0; lane < 32; ++lane) {
            for (int r = 0; r < 4; ++r) {
              ASSERT_NE(a[mi][lane][r][0], kUnwritten) << "ldmatrix read an unwritten element";
            }
          }
          testing_support::mma_16816(*reinterpret_cast<int(*)[32][4]>(acc_at(warp, mi, ni)), a[mi], b[ni]);
        }
      }
    }
  }
  }

  void epilogue(std::vector<int>& c) {
    auto store = [&](int row, int col, int v) {
      ASSERT_LT(row, M);
      ASSERT_LT(col, N);
      int& slot = c[static_cast<size_t>(row * N + col)];
      ASSERT_EQ(slot, kUnwritten) << "output (" << row << ", " << col << ") written twice";
      slot = v;
    };
    for (int warp = 0; warp < Tl::kWarps; ++warp) {
      const int row0 = tile_m * Tl::kBlockM + (warp / Tl::kWarpsN) * kWarpM;
      const int col0 = tile_n * Tl::kBlockN + (warp % Tl::kWarpsN) * kWarpN;
      if constexpr (Tl::kEpilogue == Epilogue::Staged) {
        ASSERT_LE((warp + 1) * kWarpM * kStagingRowBytes, Tl::kSmemBytes);
        std::vector<int> staging(static_cast<size_t>(kWarpM * kStagingRowBytes / 2), kUnwritten);
        for (int mi = 0; mi < kFragsM; ++mi) {
          for (int ni = 0; ni < kFragsN; ++ni) {
            for (int half = 0; half < 2; ++half) {
              std::set<std::uint32_t> banks;
              for (int lane = 0; lane < 32; ++lane) {
                const std::uint32_t at = staging_store_offset(lane, mi, ni, half);
                ASSERT_EQ(at % 4, 0u);
                banks.insert((at / 4) % 32);
                for (int e = 0; e < 2; ++e) {
                  int& slot = staging.at(at / 2 + static_cast<std::uint32_t>(e));
                  ASSERT_EQ(slot, kUnwritten) << "staging element written twice";
                  slot = acc_at(warp, mi, ni)[lane][2 * half + e];
                }
              }
              EXPECT_EQ(banks.size(), 32u) << "staging store bank conflict";
            }
          }
        }
        for (int p = 0; p < kStagingReads; ++p) {
          std::uint32_t at[32];
          for (int lane = 0; lane < 32; ++lane) at[lane] = staging_read_offset(lane, p);
          for (int q = 0; q < 4; ++q) {
            std::uint32_t quarter[8];
            for (int l = 0; l < 8; ++l) quarter[l] = at[8 * q + l];
            expect_distinct_bank_groups(quarter, "staging read");
          }
          for (int lane = 0; lane < 32; ++lane) {
            const int row = row0 + staging_read_row(lane, p);
            const int col = col0 + staging_read_col(lane);
            for (int e = 0; e < kChunkElems; ++e) {
              const int v = staging.at(at[lane] / 2 + static_cast<std::uint32_t>(e));
              ASSERT_NE(v, kUnwritten) << "staging read an unwritten element";
              if (row < M && col + e < N) store(row, col + e, v);
            }
          }
        }
      } else {
        for (int mi = 0; mi < kFragsM; ++mi) {
          for (int ni = 0; ni < kFragsN; ++ni) {
            for (int lane = 0; lane < 32; ++lane) {
              for (int e = 0; e < 4; ++e) {
                const int row = row0 + mi * kMmaM + (e / 2) * 8 + lane / 4;
                const int col = col0 + ni * kMmaN + (lane % 4) * 2 + e % 2;
                if (row < M && col < N) store(row, col, acc_at(warp, mi, ni)[lane][e]);
              }
            }
          }
        }
      }
    }
  }
};

template <class Tl>
void replay_block(const Operands& o, int tile_m, int tile_n, std::vector<int>& c) {
  BlockReplay<Tl> r{o, tile_m, tile_n};
  const int k_tiles = (o.K + Tl::kBlockK - 1) / Tl::kBlockK;
  for (int kt = 0; kt < k_tiles; ++kt) {
    const std::uint32_t stage = static_cast<std::uint32_t>((kt % Tl::kStages) * Tl::kStageBytes);
    r.copy_tile(kt, stage);
    if (::testing::Test::HasFatalFailure()) return;
    r.mma_tile(stage);
    if (::testing::Test::HasFatalFailure()) return;
  }
  r.epilogue(c);
}

template <class Tl>
void replay(int M, int N, int K) {
  SCOPED_TRACE("M" + std::to_string(M) + " N" + std::to_string(N) + " K" + std::to_string(K) + " tile " +
               std::to_string(Tl::kBlockM) + "x" + std::to_string(Tl::kBlockN) + " k" + std::to_string(Tl::kBlockK) +
               (Tl::kSwizzle ? " swizzled" : " padded"));
  const Operands o = make_operands(M, N, K);
  std::vector<int> c(static_cast<size_t>(M * N), kUnwritten);
  for (int tile_m = 0; tile_m * Tl::kBlockM < M; ++tile_m) {
    for (int tile_n = 0; tile_n * Tl::kBlockN < N; ++tile_n) {
      replay_block<Tl>(o, tile_m, tile_n, c);
      if (testing::Test::HasFatalFailure()) return;
    }
  }
  for (int row = 0; row < M; ++row) {
    for (int col = 0; col < N; ++col) {
      ASSERT_EQ(c[static_cast<size_t>(row * N + col)], o.c(row, col)) << "C(" << row << ", " << col << ")";
    }
  }
}

template <class Tl>
void replay_edge_shapes() {
  replay<Tl>(Tl::kBlockM, Tl::kBlockN, 2 * Tl::kBlockK);  // one whole tile
  replay<Tl>(Tl::kBlockM + 3, Tl::kBlockN + 24, 72);      // partial tiles, ragged last k-tile
  replay<Tl>(77, 45, 8);                                   // one short k-tile; N % 8 != 0
  replay<Tl>(1, 1, 16);
}

TEST(GemmTcTiles, KernelTilingComputesTheProduct) { replay_edge_shapes<KernelTiling>(); }
// The other layouts the template offers and the variant bench measured: 64-wide k-tiles
// (8 chunks per row, one row per swizzle line), 128 x 128 and 128 x 256 blocks, padded rows, the
// direct epilogue.
TEST(GemmTcTiles, OtherLayoutsComputeTheProduct) {
  replay_edge_shapes<Tiling<128, 128, 32, 4, 2>>();
  replay_edge_shapes<Tiling<128, 128, 64, 3, 2>>();
  replay_edge_shapes<Tiling<128, 256, 32, 4, 1, false>>();
  replay_edge_shapes<Tiling<128, 256, 64, 3, 1, true, Epilogue::Direct>>();
}

// On sm_90 and newer the copy engine fills the A and B tiles instead of the replayed cp.async
// copies: every element must land where chunk_offset (and so ldmatrix) expects it.
template <class Tl>
void check_tensor_copy_layout() {
  static_assert(Tl::kTensorCopies && Tl::kATileBytes % 1024 == 0 && Tl::kStageBytes % 1024 == 0);
  for (int row = 0; row < Tl::kBlockM + Tl::kBlockN; ++row) {  // the A rows, then the B rows
    for (int k = 0; k < Tl::kBlockK; ++k) {
      const auto dense = static_cast<std::uint32_t>(row * Tl::kRowBytes + k * kElementBytes);
      const std::uint32_t laid =
          Tl::chunk_offset(row, k / kChunkElems) + static_cast<std::uint32_t>((k % kChunkElems) * kElementBytes);
      ASSERT_EQ(laid, testing_support::tensor_copy_swizzle(dense, Tl::kRowBytes)) << "row " << row << " k " << k;
    }
  }
}

TEST(GemmTcTiles, TensorCopiesLandWhereTheFragmentsRead) {
  check_tensor_copy_layout<KernelTiling>();
  check_tensor_copy_layout<Tiling<128, 128, 64, 3, 2>>();  // 128-byte rows
}

TEST(GemmTcTiles, KernelTilingFitsTheDevice) {
  // 4 stages of (256 + 128) rows of 64 bytes; the staging of 8 warps x 8 KB fits inside the ring.
  EXPECT_EQ(KernelTiling::kSmemBytes, 4 * 384 * 64);
  EXPECT_LE(KernelTiling::kStagingBytes, KernelTiling::kRingBytes);
  // One block per SM everywhere: within the 99 KB a block may opt into on 8.6 / 8.9 / 12.0.
  EXPECT_LE(KernelTiling::kLaunchSmemBytes, 99 * 1024) << "runs on every sm_80+ device";
  EXPECT_EQ(KernelTiling::kLaunchSmemBytes, KernelTiling::kSmemBytes + 4 * 8 + 1024);  // barriers, alignment
  EXPECT_EQ(KernelTiling::kThreads, 256);
  EXPECT_EQ(KernelTiling::kMinBlocksPerSm, 1);
}

}  // namespace
}  // namespace archbench::kernels::matmul::tc
