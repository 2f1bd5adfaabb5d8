// The Hopper GEMM main loop: C[M,N] = A[M,K] · B[N,K]ᵀ with wgmma, TMA and mbarriers, shared by the
// matmul (kernels/matmul/gemm_wgmma.cu: A a row-major matrix) and the convolution
// (kernels/conv/conv_wgmma.cu: A the implicit im2col matrix of an NHWC input, each tile a box of
// output pixels copied from the input at each filter tap). Where the A tiles come from is the
// kernel's ASource parameter; everything else is this file. Included by .cu files compiled for
// sm_90a only (CMakeLists.txt).
//
// Structure:
//   * A CTA of three warpgroups computes 128 x BN tiles of C (BN = 256, 224 or 192 in the GEMM, chosen
//     per shape by gemm_wgmma_tiling.hpp; the convolution's plan adds 160, 128 and 96). Warpgroup 0
//     is the producer: it gives registers back (setmaxnreg) and one thread issues the tensor
//     copies. Warpgroups 1 and 2 are consumers (setmaxnreg up): each owns 64 rows of the tile, BN/2
//     fp32 accumulators per thread. An ASource with kTileRows = 64 gets 64 x BN tiles, one consumer.
//   * K advances in steps of 128 bytes (64 halves or 128 FP8 values), exactly one 128-byte-swizzle
//     row, through a ring of STAGES shared-memory stages (A 128 or 64 rows, B BN rows); each wgmma reads
//     32 bytes of every row (k16 for 16-bit types, k32 for FP8), so both take the same tiles. The
//     copy engine writes each tile swizzled, the wgmma descriptors read it with the same swizzle:
//     no bank conflicts, no register staging. A `full` mbarrier per stage completes when its bytes have landed; an
//     `empty` one when every consumer that reads the stage has finished with it.
//   * Two CTAs form a cluster, stacked along M: they need the same B tile, so each loads half of
//     it and multicasts that half to both, cutting L2 traffic per CTA by a third. A stage is
//     therefore refilled only after the consumers of both CTAs released it.
//   * The grid is persistent (as many clusters as fit at once); tiles are walked in groups of 8
//     cluster rows so that concurrently running tiles share A and B in L2. The producer runs up
//     to STAGES steps ahead, into the next tile while the consumers store the last one.
//   * Consumers keep one wgmma group in flight: a stage is released once the group after it has
//     been issued and the group reading it has completed.
//   * Split-K (the convolution's small images), two ways. Workspace: split z of a tile sums its chunk
//     of the k-steps and stores fp32 partials to rows z * M + m of a workspace, which a second
//     kernel adds up. In the cluster: the S splits of a tile are the S CTAs of one cluster (no pair
//     then, each loads all of B); once every one has left its main loop, each 16-row block of the
//     tile has an owner CTA, the others write their fp32 accumulators of it into the owner's shared
//     memory (the operand stages, free by then), and the owner adds them up and stores C. No
//     workspace, no second kernel: the partials never leave the cluster.
//   * Epilogue: each consumer rounds its 64 x BN accumulators to the output type and writes them,
//     64 bytes of each row at a time (32 16-bit or 16 fp32 columns), into a ring of small swizzled
//     shared-memory buffers; one thread hands
//     each to the copy engine (a bulk tensor store, which also clips the M/N edges) and the
//     consumers go straight on to the next tile's mma while the stores drain. Storing from
//     registers instead left the tensor cores idle for the whole epilogue: each warp-wide store
//     wrote 16-byte pieces of 8 rows. K tails and M/N edges of the inputs read as zeros (TMA
//     out-of-bounds fill).
//   * FP8 (e4m3, or e5m2 A times e4m3 B; bf16 out, as torch._scaled_mm): the per-tensor scales
//     multiply the fp32 accumulators once, in the epilogue. The tensor cores keep the running sum
//     across the whole K (fast accumulation, cuBLASLt's CUBLASLT_MATMUL_DESC_FAST_ACCUM).
#pragma once

#include "kernels/matmul/gemm_wgmma_tiling.hpp"
#include "kernels/common/swizzle_atom.hpp"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma_pipeline.cuh"
#include "kernels/common/wgmma_instructions.cuh"
#include "harness/util/cuda_check.hpp"

#include <cuda.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <array>
#include <stdexcept>
#include <type_traits>
#include <utility>

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "wgmma_gemm.cuh is compiled for sm_90a only (wgmma, setmaxnreg): see CMakeLists.txt"
#endif

namespace archbench::kernels::wgmma_gemm {

using matmul::kWgmmaCluster;
using matmul::kWgmmaTileM;
using matmul::wgmma_tile_width;


constexpr int kBlockM = kWgmmaTileM;  // rows of C per tile, unless the A source asks for 64 (kTileRows)
constexpr int kRowBytes = 128;  // of K per stage: one row of the 128-byte swizzle
template <typename In>
constexpr int kBlockK = kRowBytes / static_cast<int>(sizeof(In));  // 64 halves, 128 FP8 values
constexpr int kMmaBytes = 32;   // of each row per wgmma (k16 of 16-bit types, k32 of FP8)
// One consumer warpgroup per 64 rows of the tile (two at 128 rows, one at 64), and the producer.
__host__ __device__ constexpr int consumers_of(int rows) { return rows / 64; }
__host__ __device__ constexpr int threads_of(int rows) { return 128 * (1 + consumers_of(rows)); }
constexpr int kCluster = kWgmmaCluster;
constexpr int kGroupRows = 8;        // cluster rows per raster group
constexpr int kProducerRegs = 40;    // setmaxnreg: the copy thread needs few
constexpr int kConsumerRegs = 232;   // up to 128 accumulators + addresses; 128*40 + 256*232 <= 64K

// The epilogue's unit: 64 rows (one consumer's) x 64 bytes of C (32 columns of a 16-bit C, 16 of
// fp32 split-K partials), stored with the 64-byte swizzle so that a warp's writes of 8 rows x 16
// bytes hit 32 different banks.
constexpr int kStoreRowBytes = 64;
constexpr int kStoreBytes = 64 * kStoreRowBytes;
template <typename Out>
constexpr int kStoreCols = kStoreRowBytes / static_cast<int>(sizeof(Out));

template <int BN, int Pair = kCluster, int BM = kBlockM>
struct Layout {
  static_assert(BM == 128 || BM == 64, "one or two consumer warpgroups");
  static constexpr int a_bytes = BM * kRowBytes;
  static constexpr int b_bytes = BN * kRowBytes;
  static constexpr int stage_bytes = a_bytes + b_bytes;
  static constexpr int b_part_rows = BN / Pair;  // the rows of B each CTA of the pair loads
  // Operand stages and, per consumer, store buffers (at least 2, so that writing one overlaps the
  // copy engine reading the other): as many as fit in 227 KB at 192-256, stages first (the narrower
  // convolution widths keep 5 stages: their reductions are short).
  // 64-row tiles: as many stages as fit, at most 8 (one consumer, so half the store buffers).
  static constexpr int store_buffers = BN == 192 ? 3 : 4;
  static constexpr int store_bytes = consumers_of(BM) * store_buffers * kStoreBytes;
  static constexpr int stages_that_fit = (227 * 1024 - store_bytes - kSwizzleAtomBytes - 16 * 8) / stage_bytes;
  static constexpr int stages = BM == 128 ? (BN <= 192 ? 5 : 4) : (stages_that_fit < 8 ? stages_that_fit : 8);
  static constexpr int operand_bytes = stages * stage_bytes;
  // Operand stages, store buffers, then 2 mbarriers per stage, plus slack to align the base to 1024 bytes.
  static constexpr int smem_bytes = operand_bytes + store_bytes + 2 * stages * 8 + kSwizzleAtomBytes;
  static_assert(a_bytes % 1024 == 0 && stage_bytes % 1024 == 0 && (b_part_rows * kRowBytes) % 1024 == 0,
                "every operand tile starts a 128-byte-swizzle atom");
  static_assert(BN % 32 == 0 && store_buffers >= 2, "whole store boxes, double-buffered at least");
  static_assert(smem_bytes <= 227 * 1024, "fits the opt-in shared memory of one SM");
};

// Split-K in the cluster: at most 8 CTAs (the portable cluster size), one split each. The tile's
// eight 16-row blocks (4 warps x 2 consumers) are owned round-robin: block w by the CTA of rank
// w % splits. The other splits' fp32 accumulators of a block go to its owner's receive slots, one
// per other rank, laid out so that a warp's 16-byte stores and loads cover 512 contiguous bytes.
constexpr int kMaxClusterSplits = matmul::kWgmmaMaxClusterSplits;
template <int BN>
constexpr int kBlockFloats = 32 * BN / 2;  // one warp's accumulators: 32 threads x BN/2
// The tile's 16-row blocks (8 at 128 rows, 4 at 64) that one owner of `splits` holds at most.
__host__ __device__ constexpr int blocks_per_owner(int rows, int splits) { return (rows / 16 + splits - 1) / splits; }
template <int BN, int BM>
constexpr int receive_bytes(int splits) {
  return (splits - 1) * blocks_per_owner(BM, splits) * kBlockFloats<BN> * 4;
}
template <int BN, int BM>
constexpr bool receive_fits() {
  for (int s = 2; s <= kMaxClusterSplits; ++s) {
    if (receive_bytes<BN, BM>(s) > Layout<BN, 1, BM>::operand_bytes) return false;
  }
  return true;
}
template <int BN, int BM>
constexpr bool kReceiveFits = receive_fits<BN, BM>();

// The rows of C per tile: the A source's kTileRows (64 or 128), or 128.
template <typename ASource, typename = void>
struct tile_rows : std::integral_constant<int, kBlockM> {};
template <typename ASource>
struct tile_rows<ASource, std::void_t<decltype(ASource::kTileRows)>>
    : std::integral_constant<int, ASource::kTileRows> {};

// The A source of a row-major A[M, K] in memory (the GEMM's A; a 1x1 convolution's input): k-step k
// of tile row tm is the 2-D box at (k * 128 bytes, Rows * tm). Widths: the tile widths its kernels are
// instantiated for; SplitsInCluster: whether they include the cluster-split kernels.
template <typename In, const auto& Widths, int Rows = kBlockM, bool SplitsInCluster = false>
struct MatrixA {
  static constexpr auto& kTileWidths = Widths;
  static constexpr int kTileRows = Rows;
  static constexpr bool kSplitsInCluster = SplitsInCluster;
  __device__ __forceinline__ void load(uint32_t dst, const CUtensorMap* map, uint32_t bar, int k, int tm) const {
    tma::load_2d(dst, map, bar, k * kBlockK<In>, tm * Rows);
  }
};

// Cluster tile `unit` -> (row of cluster tiles, column tile), grouped by kGroupRows rows.
__device__ __forceinline__ void unit_coords(int unit, int units_m, int tiles_n, int& um, int& tn) {
  const int group = kGroupRows * tiles_n;
  const int first = (unit / group) * kGroupRows;
  const int rows = min(units_m - first, kGroupRows);
  const int in_group = unit % group;
  um = first + in_group % rows;
  tn = in_group / rows;
}

// Two outputs rounded to T and packed into one 32-bit word (the lower column first).
template <typename T>
__device__ __forceinline__ uint32_t packed_pair(float x, float y) {
  if constexpr (std::is_same_v<T, __half>) {
    const __half2 v = __floats2half2_rn(x, y);
    return *reinterpret_cast<const uint32_t*>(&v);
  } else {
    const __nv_bfloat162 v = __floats2bfloat162_rn(x, y);
    return *reinterpret_cast<const uint32_t*>(&v);
  }
}

__device__ __forceinline__ void store_shared(uint32_t address, uint32_t value) {
  asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(address), "r"(value) : "memory");
}

// Where 32-bit word `word` (0-15: a pair of 16-bit columns, or one fp32 column) of row `row` lies
// in a 64-byte-swizzled store buffer: 16-byte unit u of a row moves to u ^ ((row / 2) % 4), the
// copy engine's 64-byte swizzle pattern.
__device__ __forceinline__ uint32_t store_offset(int row, int word) {
  const int unit = (word / 4) ^ ((row >> 1) & 3);
  return static_cast<uint32_t>(row * kStoreRowBytes + unit * 16 + (word % 4) * 4);
}

// Four floats to the same shared-memory offset in CTA `cta` of this cluster.
__device__ __forceinline__ void store_remote_v4(uint32_t address, uint32_t cta, float a, float b, float c, float d) {
  asm volatile(
      "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
      "st.shared::cluster.v4.f32 [remote], {%2, %3, %4, %5};\n}\n" ::"r"(address),
      "r"(cta), "f"(a), "f"(b), "f"(c), "f"(d)
      : "memory");
}

template <typename In>
constexpr bool kIsFp8 = std::is_same_v<In, __nv_fp8_e4m3> || std::is_same_v<In, __nv_fp8_e5m2>;
// B's type: In's, but e4m3 under an e5m2 A (dtype.hpp's fp8_partner: mma_ss<e5m2, e4m3> multiplies
// .e5m2 by .e4m3).
template <typename In>
using BOperand = std::conditional_t<std::is_same_v<In, __nv_fp8_e5m2>, __nv_fp8_e4m3, In>;

// How many k-steps of 128 bytes a reduction of K elements of In takes (the kernel and the host).
template <typename In>
__host__ __device__ constexpr int k_steps(int K) {
  return (K + kBlockK<In> - 1) / kBlockK<In>;
}

// In: the operands' type; Out: C's (In, or bf16 for FP8), or float for split-K partials. scale_a,
// scale_b: FP8's per-tensor scales (device floats), null for 16-bit inputs.
// kClusterSplit false: CTA pairs along M share B; splits > 1 (Out float only): split z of each tile
// sums k-steps [z * chunk, (z + 1) * chunk) and writes rows z * M + m of C, a [splits * M, N] fp32
// workspace that a second kernel sums; M a multiple of the tile's rows then, so that no tile's rows
// run into the next split's.
// kClusterSplit true: the cluster is `splits` CTAs (2-8), split z = rank z of the same tile; the
// owners store C (16-bit Out) to c_rows directly, row-major [M, N].
// ASource: where the A tiles come from (see the top of this file); its load(dst, map, bar, k_step,
// tile_m) issues the copy of A's rows [BM tile_m, +BM) and k-step k_step into a stage (BM: tile_rows).
template <typename In, typename Out, int BN, typename ASource, bool kClusterSplit>
__global__ void __launch_bounds__(threads_of(tile_rows<ASource>::value), 1)
    wgmma_gemm(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
               const __grid_constant__ CUtensorMap map_c, int M, int N, int K, const float* scale_a,
               const float* scale_b, const ASource a_source, int splits, Out* c_rows) {
#if defined(__CUDA_ARCH__)
  constexpr int kPair = kClusterSplit ? 1 : kCluster;  // CTAs sharing each B tile
  constexpr int BM = tile_rows<ASource>::value;
  constexpr int kConsumers = consumers_of(BM);
  using L = Layout<BN, kPair, BM>;
  static_assert(!kClusterSplit || (!std::is_same_v<Out, float> && kReceiveFits<BN, BM>),
                "split-K in the cluster stores 16-bit C, its partials fit in the operand stages");
  extern __shared__ uint8_t smem_raw[];
  const uint32_t smem_start = tma::smem_address(smem_raw);
  const uint32_t base = swizzle_atom_aligned(smem_start);
  const uint32_t store_base = base + L::operand_bytes;
  const uint32_t full = store_base + L::store_bytes;
  const uint32_t empty = full + L::stages * 8;
  const int warpgroup = threadIdx.x / 128;

  if (threadIdx.x == 0) {
    // The descriptors are fetched while the barriers are set up, not just before the first copy.
    tma::prefetch_map(&map_a);
    tma::prefetch_map(&map_b);
    tma::prefetch_map(&map_c);
    for (int s = 0; s < L::stages; ++s) {
      tma::barrier_init(full + 8 * s, 1);
      tma::barrier_init(empty + 8 * s, kConsumers * kPair);
    }
    tma::fence_barrier_init();
  }
  tma::cluster_sync();  // the peer's copies and arrivals target these barriers

  const int rank = static_cast<int>(tma::cluster_rank());
  const int pair_rank = kClusterSplit ? 0 : rank;
  const int tiles_m = (M + BM - 1) / BM;
  const int units_m = (tiles_m + kPair - 1) / kPair;
  const int tiles_n = (N + BN - 1) / BN;
  const int tiles = units_m * tiles_n;
  const int units = kClusterSplit ? tiles : tiles * splits;
  const int steps = k_steps<In>(K);
  const int chunk = (steps + splits - 1) / splits;  // the host makes every split's range non-empty
  const int first_unit = static_cast<int>(tma::cluster_index());
  const int unit_step = static_cast<int>(tma::cluster_count());

  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kProducerRegs));
    int stage = 0;
    uint32_t phase = 0;
    for (int unit = first_unit; unit < units; unit += unit_step) {
      if (threadIdx.x == 0) {
        int um, tn;
        unit_coords(unit % tiles, units_m, tiles_n, um, tn);
        const int split = kClusterSplit ? rank : unit / tiles;
        const int k_begin = split * chunk, k_end = min(steps, k_begin + chunk);
        // With an odd tile count the last pair's second tile lies past M: it loads a valid A
        // tile (the pair still shares B) and stores nothing.
        const int tm = min(um * kPair + pair_rank, tiles_m - 1);
        for (int k = k_begin; k < k_end; ++k) {
          tma::barrier_wait(empty + 8 * stage, phase ^ 1);
          const uint32_t bar = full + 8 * stage;
          const uint32_t a = base + stage * L::stage_bytes;
          tma::barrier_arrive_expect_bytes(bar, L::stage_bytes);
          a_source.load(a, &map_a, bar, k, tm);
          if constexpr (kClusterSplit) {
            tma::load_2d(a + L::a_bytes, &map_b, bar, k * kBlockK<In>, tn * BN);
          } else {
            tma::load_2d_multicast(a + L::a_bytes + rank * L::b_part_rows * kRowBytes, &map_b, bar, k * kBlockK<In>,
                                   tn * BN + rank * L::b_part_rows, static_cast<uint16_t>((1u << kCluster) - 1));
          }
          if (++stage == L::stages) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
      if constexpr (kClusterSplit) {  // the consumers' three cluster barriers of each tile
        tma::cluster_sync();
        tma::cluster_sync();
        tma::cluster_sync();
      }
    }
    if constexpr (!kClusterSplit) {
      // The pair's tail: wait until every stage's last fill has been released by the consumers of
      // both CTAs. Then this CTA's multicasts have landed in the peer and the peer's consumers
      // arrive on this CTA's barriers no more, so either CTA may exit without a cluster barrier
      // after its epilogue (a stage never filled passes at once: its barrier is in phase 0).
      if (threadIdx.x == 0) {
        for (int i = 0; i < L::stages; ++i) {
          tma::barrier_wait(empty + 8 * stage, phase ^ 1);
          if (++stage == L::stages) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kConsumerRegs));
    const int half = warpgroup - 1;  // rows [64 * half, 64 * half + 64) of the tile
    const int t = threadIdx.x % 128;
    const int warp = t / 32;
    const int lane = t % 32;
    const bool leader = t == 0;
    float acc[BN / 2];
    float scale = 1.0f;
    if constexpr (kIsFp8<In>) scale = *scale_a * *scale_b;
    const uint32_t my_buffers = store_base + half * L::store_buffers * kStoreBytes;
    uint32_t stores = 0;  // boxes this consumer has handed to the copy engine
    int stage = 0;
    uint32_t phase = 0;
    // A stage is read by the consumers of every CTA that shares it: release it in each.
    const auto release = [&](int s) {
      if (!leader) return;
      if constexpr (kClusterSplit) {
        tma::barrier_arrive(empty + 8 * s);
      } else {
        for (int cta = 0; cta < kCluster; ++cta) tma::barrier_arrive_in(empty + 8 * s, cta);
      }
    };
    for (int unit = first_unit; unit < units; unit += unit_step) {
      int um, tn;
      unit_coords(unit % tiles, units_m, tiles_n, um, tn);
      const int split = kClusterSplit ? rank : unit / tiles;
      const int k_begin = split * chunk, k_end = min(steps, k_begin + chunk);
      const int tm = um * kPair + pair_rank;
      int previous = 0;
      for (int k = k_begin; k < k_end; ++k) {
        tma::barrier_wait(full + 8 * stage, phase);
        const uint32_t a = base + stage * L::stage_bytes;
        const uint64_t desc_a = wgmma::smem_descriptor(a + half * 64 * kRowBytes);
        const uint64_t desc_b = wgmma::smem_descriptor(a + L::a_bytes);
        wgmma::fence_registers(acc);
        wgmma::fence();
#pragma unroll
        for (int kk = 0; kk < kRowBytes / kMmaBytes; ++kk) {
          // 32 bytes further along the swizzled row (the address field counts 16 bytes).
          const int accumulate = (k > k_begin || kk > 0) ? 1 : 0;
          wgmma::mma_ss<In, BOperand<In>, BN>(acc, desc_a + 2 * kk, desc_b + 2 * kk, accumulate);
        }
        wgmma::commit_group();
        // The previous k-step's group is done; this one stays in flight (tools/sass/wgmma_schedule.py
        // checks in the SASS that ptxas kept it so).
        wgmma::wait_group<1>();
        wgmma::fence_registers(acc);
        if (k > k_begin) release(previous);
        previous = stage;
        if (++stage == L::stages) {
          stage = 0;
          phase ^= 1;
        }
      }
      wgmma::wait_group<0>();
      wgmma::fence_registers(acc);
      release(previous);

      if constexpr (kClusterSplit) {
        // 1: every CTA of the cluster is out of its main loop, so its operand stages are free.
        tma::cluster_sync();
        const int block = half * 4 + warp;  // this warp's 16 rows of the tile
        const int owner = block % splits;
        const int owned = blocks_per_owner(BM, splits);
        // Slot of source rank r in the owner's receive area: the ranks other than the owner, in order.
        const auto slot_address = [&](int source) {
          const int slot = source < owner ? source : source - 1;
          return base + static_cast<uint32_t>(((slot * owned + block / splits) * kBlockFloats<BN> + lane * 4) * 4);
        };
        if (owner != rank) {
          const uint32_t to = slot_address(rank);
#pragma unroll
          for (int i = 0; i < BN / 2; i += 4) {
            store_remote_v4(to + static_cast<uint32_t>(i * 32 * 4), static_cast<uint32_t>(owner), acc[i], acc[i + 1],
                            acc[i + 2], acc[i + 3]);
          }
        }
        // 2: the partials have landed in their owners.
        tma::cluster_sync();
        if (owner == rank) {
          for (int source = 0; source < splits; ++source) {
            if (source == rank) continue;
            const uint32_t from = slot_address(source);
#pragma unroll
            for (int i = 0; i < BN / 2; i += 4) {
              const float4 v = *reinterpret_cast<const float4*>(smem_raw + (from - smem_start) + i * 32 * 4);
              acc[i] += v.x;
              acc[i + 1] += v.y;
              acc[i + 2] += v.z;
              acc[i + 3] += v.w;
            }
          }
          if constexpr (kIsFp8<In>) {
#pragma unroll
            for (int i = 0; i < BN / 2; ++i) acc[i] *= scale;
          }
          // Straight from registers (layout below): one tile's 16-row blocks, once per tile.
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int row = tm * BM + 16 * block + lane / 4 + 8 * h;
            if (row >= M) continue;
            Out* out = c_rows + static_cast<size_t>(row) * static_cast<size_t>(N);
#pragma unroll
            for (int j = 0; j < BN / 8; ++j) {
              const int col = tn * BN + 8 * j + 2 * (lane % 4);
              if (col < N) {
                *reinterpret_cast<uint32_t*>(out + col) = packed_pair<Out>(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
              }
            }
          }
        }
        // 3: the owners have read their receive slots; the next tile may refill the stages.
        tma::cluster_sync();
        continue;
      } else {
        // The second tile of the last pair when the tile count is odd: nothing to store (its rows
        // would be the next split's).
        if (tm >= tiles_m) continue;
        if constexpr (kIsFp8<In>) {
#pragma unroll
          for (int i = 0; i < BN / 2; ++i) acc[i] *= scale;
        }

        // m64nNk16 accumulator layout: acc[4j + 2h + e] is row 16*warp + lane/4 + 8h,
        // column 8j + 2*(lane%4) + e of this warpgroup's 64 x BN block. Box p holds columns
        // [cols * p, cols * (p + 1)): j = (cols / 8) p + jj, jj < cols / 8.
        constexpr int cols = kStoreCols<Out>;
#pragma unroll
        for (int p = 0; p < BN / cols; ++p) {
          const uint32_t buffer = my_buffers + (stores % L::store_buffers) * kStoreBytes;
#pragma unroll
          for (int jj = 0; jj < cols / 8; ++jj) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
              const int j = p * (cols / 8) + jj;
              const int row = warp * 16 + lane / 4 + 8 * h;
              if constexpr (std::is_same_v<Out, float>) {  // one column per word
                store_shared(buffer + store_offset(row, 8 * jj + 2 * (lane % 4)),
                             __float_as_uint(acc[4 * j + 2 * h]));
                store_shared(buffer + store_offset(row, 8 * jj + 2 * (lane % 4) + 1),
                             __float_as_uint(acc[4 * j + 2 * h + 1]));
              } else {  // two columns per word
                store_shared(buffer + store_offset(row, 4 * jj + lane % 4),
                             packed_pair<Out>(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]));
              }
            }
          }
          tma::fence_proxy_async();  // these writes before the copy engine's reads
          // The next box's buffer was last handed over store_buffers - 1 boxes ago: with at most
          // store_buffers - 2 of the boxes since still being read, it is free.
          if (leader) tma::store_wait_read<L::store_buffers - 2>();
          tma::named_barrier_sync(1 + half, 128);
          if (leader) {
            tma::store_2d(&map_c, buffer, tn * BN + p * cols, split * M + tm * BM + half * 64);
            tma::store_commit();
          }
          ++stores;
        }
      }
    }
    // The buffers stay valid until the copy engine has read them; the global writes need no wait:
    // they complete before the kernel does.
    if (leader) tma::store_wait_read<0>();
  }
  // No cluster barrier at exit: the producer's tail (pairs) or the last tile's third cluster
  // barrier (split in the cluster) is the last point at which the peer touches this CTA's memory.
#endif
}

template <typename In, typename Out, int BN, typename ASource, bool kClusterSplit>
const void* kernel_address() {
  return reinterpret_cast<const void*>(&wgmma_gemm<In, Out, BN, ASource, kClusterSplit>);
}

// Per device and cluster size, once per kernel: the shared-memory opt-in, and how many clusters fit
// at once.
template <typename In, typename Out, int BN, typename ASource, bool kClusterSplit>
int resident_clusters(int device, cudaLaunchConfig_t config) {
  static std::mutex mutex;
  static std::map<std::pair<int, unsigned>, int> known;
  const std::lock_guard<std::mutex> lock(mutex);
  const std::pair<int, unsigned> key{device, config.gridDim.x};
  if (auto it = known.find(key); it != known.end()) return it->second;
  const void* kernel = kernel_address<In, Out, BN, ASource, kClusterSplit>();
  ARCHBENCH_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            Layout<BN, kCluster, tile_rows<ASource>::value>::smem_bytes));
  int clusters = 0;
  ARCHBENCH_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  if (clusters < 1) throw std::runtime_error("gemm_wgmma: no cluster of this kernel fits on the device");
  known[key] = clusters;
  return clusters;
}

// One launch at tile width BN: map_a is ASource's (boxes of BM rows x 128 bytes of k, 128-byte
// swizzle); B in boxes of 128 bytes of k and the rows each CTA loads, C (splits x M rows of
// workspace partials, or M rows) in boxes of 64 rows x 64 bytes (64-byte swizzle).
// A launch of this kernel in clusters of cluster_size CTAs along x (the caller sets the grid).
template <int BN, int BM>
cudaLaunchConfig_t cluster_config(cudaLaunchAttribute& cluster, int cluster_size, cudaStream_t stream) {
  cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = static_cast<unsigned>(cluster_size);
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.blockDim = dim3(threads_of(BM));
  config.dynamicSmemBytes = Layout<BN, kCluster, BM>::smem_bytes;
  config.stream = stream;
  config.attrs = &cluster;
  config.numAttrs = 1;
  config.gridDim = dim3(static_cast<unsigned>(cluster_size));
  return config;
}

template <typename In, typename Out, int BN, typename ASource, bool kClusterSplit>
void launch_width(const CUtensorMap& map_a, const ASource& a_source, const BOperand<In>* B, Out* C, int M, int N, int K,
                  const float* scale_a, const float* scale_b, int splits, int device, cudaStream_t stream) {
  constexpr int kPair = kClusterSplit ? 1 : kCluster;
  constexpr int BM = tile_rows<ASource>::value;
  const int cluster_size = kClusterSplit ? splits : kCluster;
  const CUtensorMap map_b = matrix_tensor_map(B, N, K, Layout<BN, kPair, BM>::b_part_rows, kBlockK<In>, "wgmma_gemm");
  const long long c_rows = kClusterSplit ? M : static_cast<long long>(M) * splits;
  const CUtensorMap map_c = matrix_tensor_map<Out>(C, c_rows, N, 64, kStoreCols<Out>, "wgmma_gemm");
  cudaLaunchAttribute cluster;
  cudaLaunchConfig_t config = cluster_config<BN, BM>(cluster, cluster_size, stream);
  const int clusters = resident_clusters<In, Out, BN, ASource, kClusterSplit>(device, config);
  const long long tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  const long long units = kClusterSplit ? tiles_m * tiles_n : (tiles_m + kCluster - 1) / kCluster * tiles_n * splits;
  config.gridDim = dim3(static_cast<unsigned>(cluster_size * (units < clusters ? units : clusters)));
  ARCHBENCH_CUDA_CHECK(cudaLaunchKernelEx(&config, wgmma_gemm<In, Out, BN, ASource, kClusterSplit>, map_a, map_b,
                                          map_c, M, N, K, scale_a, scale_b, a_source, splits, C));
}


// Whether ASource asks for the cluster-split kernels (a static constexpr bool kSplitsInCluster).
template <typename ASource, typename = void>
struct splits_in_cluster : std::false_type {};
template <typename ASource>
struct splits_in_cluster<ASource, std::void_t<decltype(ASource::kSplitsInCluster)>>
    : std::bool_constant<ASource::kSplitsInCluster> {};

// Calls f(integral_constant<width>) for a width of ASource::kTileWidths (an A source names the
// widths its kernels are instantiated for); std::invalid_argument otherwise.
template <typename ASource, typename F, size_t... I>
bool with_width_of(int width, F& f, std::index_sequence<I...>) {
  constexpr auto& widths = ASource::kTileWidths;
  return ((width == widths[I] ? (f(std::integral_constant<int, widths[I]>{}), true) : false) || ...);
}
template <typename ASource, typename F>
void with_width(int width, F&& f) {
  if (!with_width_of<ASource>(width, f, std::make_index_sequence<ASource::kTileWidths.size()>{})) {
    throw std::invalid_argument("wgmma_gemm: no kernel of tile width " + std::to_string(width));
  }
}

// Launches at tile width `width` (one of ASource::kTileWidths), or with width 0 at the one chosen for
// M x N on this device (against a full device of clusters; the launch then uses what really fits).
// splits > 1 with SplitReduction::Workspace: C is the [splits * M, N] fp32 workspace of split-K
// partials (Out float, M a multiple of the tile's rows); with SplitReduction::InCluster: C is the [M, N] output
// (16-bit Out), splits <= kMaxClusterSplits. Either way splits <= the k-steps (see wgmma_gemm).
template <typename In, typename Out, typename ASource>
void launch(const CUtensorMap& map_a, const ASource& a_source, const BOperand<In>* B, Out* C, int M, int N, int K,
            const float* scale_a, const float* scale_b, cudaStream_t stream, int splits = 1, int width = 0,
            matmul::SplitReduction reduction = matmul::SplitReduction::Workspace) {
  const bool in_cluster = splits > 1 && reduction == matmul::SplitReduction::InCluster;
  constexpr int kRows = tile_rows<ASource>::value;
  if (splits < 1 || (splits > 1 && !in_cluster && (!std::is_same_v<Out, float> || M % kRows != 0)) ||
      (in_cluster && (std::is_same_v<Out, float> || splits > kMaxClusterSplits))) {
    throw std::invalid_argument("wgmma_gemm: split-K takes fp32 partials and M a multiple of " +
                                std::to_string(kRows) + " in a workspace, 16-bit C and at most " +
                                std::to_string(kMaxClusterSplits) +
                                " splits in the cluster (splits " + std::to_string(splits) + ", M " +
                                std::to_string(M) + ")");
  }
  // Every split must own at least one k-step: with chunk = ceil(steps / splits), only
  // ceil(steps / chunk) splits are non-empty.
  const int steps = k_steps<In>(K);
  const int chunk = (steps + splits - 1) / splits;
  if ((steps + chunk - 1) / chunk != splits) {
    throw std::invalid_argument("wgmma_gemm: " + std::to_string(splits) + " splits of " + std::to_string(steps) +
                                " k-steps leave one empty");
  }
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  int sms = 0;
  ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (width == 0) width = wgmma_tile_width(M, N, sms / kCluster, ASource::kTileWidths);
  with_width<ASource>(width, [&](auto bn) {
    constexpr int kBN = decltype(bn)::value;
    // Only A sources that ask for it (the convolution) instantiate the cluster-split kernels.
    constexpr bool kSplitsInCluster = !std::is_same_v<Out, float> && splits_in_cluster<ASource>::value;
    if constexpr (kSplitsInCluster) {
      if (in_cluster) {
        launch_width<In, Out, kBN, ASource, true>(map_a, a_source, B, C, M, N, K, scale_a, scale_b, splits, device,
                                                  stream);
        return;
      }
    } else if (in_cluster) {
      throw std::invalid_argument("wgmma_gemm: this A source has no cluster-split kernels");
    }
    launch_width<In, Out, kBN, ASource, false>(map_a, a_source, B, C, M, N, K, scale_a, scale_b, splits, device,
                                               stream);
  });
}

// How many CTAs of the cluster-split kernel at tile width `width` the current device holds at once
// in clusters of `splits` CTAs (a cluster runs within one GPC: fewer than the SMs).
template <typename In, typename Out, typename ASource>
int resident_split_ctas(int width, int splits) {
  static_assert(splits_in_cluster<ASource>::value && !std::is_same_v<Out, float>, "a cluster-split kernel");
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  int clusters = 0;
  with_width<ASource>(width, [&](auto bn) {
    constexpr int kBN = decltype(bn)::value;
    cudaLaunchAttribute cluster;
    clusters = resident_clusters<In, Out, kBN, ASource, true>(
        device, cluster_config<kBN, tile_rows<ASource>::value>(cluster, splits, nullptr));
  });
  return clusters * splits;
}

// The kernel of tile width tile_n (one of ASource::kTileWidths), for the image checks.
template <typename In, typename Out, typename ASource, bool kClusterSplit = false>
const void* kernel_for(int tile_n) {
  const void* kernel = nullptr;
  with_width<ASource>(tile_n, [&](auto bn) {
    kernel = kernel_address<In, Out, decltype(bn)::value, ASource, kClusterSplit>();
  });
  return kernel;
}

}  // namespace archbench::kernels::wgmma_gemm
