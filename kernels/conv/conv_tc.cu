// fp16 / bf16 implicit-GEMM convolution on the tensor cores (see conv_kernels.hpp), with
// warp-level mma.sync.m16n8k16 and fp32 accumulation.
//
// Structure (one kernel template over the element type and the tile variant, conv_tc_tiles.cuh;
// the plan picks the variant for a shape, conv_plan.hpp; its measurements: docs/kernel-choices.md):
//   * Variants: 128 x 160 and 128 x 128 with sliced K (K = 320; K = 640, 1280), 128 x 160 with
//     4 warps (at least kLargeMinMacs multiply-adds and K a multiple of 160: the 128 x 128
//     latents, C = 2560 at 16 x 16), 128 x 64 with 8-byte copies (C % 8 != 0: conv_in); 128 x 128
//     and 128 x 160 with 4 warps also where a block gets at most 99 KB of shared memory.
//   * A block owns kBlockM output pixels (GEMM rows) x kBlockN output channels and walks the
//     reduction (r, s, c) in k-tiles of kBlockK. Its warps tile the output in 64 x 64 or 64 x 80
//     pieces (4 x 8 or 4 x 10 mma tiles of 16x8, 128 or 160 fp32 accumulators per thread; 64 x 32
//     in the 8-byte-copy variant): per 16-wide k step a warp loads 4 A and 4 or 5 B fragments
//     (ldmatrix.x4) for 32 or 40 mma. On Hopper the ldmatrix reads and the copies' writes share
//     the SM's shared-memory bandwidth, and mma.sync runs at only part of the tensor cores' peak:
//     a 64 x 32 warp tile (6 ldmatrix per 16 mma) needs more shared-memory cycles than its mma
//     take; these keep it below.
//   * Sliced K (kWarpsK = 2): two warp groups share one output tile, each taking half of every
//     k-tile; at the end one group's sums go through shared memory to the other. That gives
//     8 warps per SM for shapes with few output tiles without splitting the reduction across
//     blocks.
//   * The A tile is gathered from the NHWC input with cp.async: a 16-byte (or, for C % 8 != 0,
//     8-byte) copy holds 8 (4) consecutive channels of one filter tap (r, s) of one output pixel.
//     Taps on the zero padding, rows past N*P*Q and k past R*S*C use the zero-fill form (source
//     size 0). Each thread keeps the input offset of its pixels' tap (0, 0) and walks the tap
//     (r, s, c) along the reduction with a cursor, so a k-tile costs one offset per pixel and no
//     division. The B tile is the KRSC filter, row k = output channel, which is already the "col"
//     operand layout mma wants. Built for sm_90 or newer (and C % 8 == 0), one thread has the copy
//     engine bring the B tile (a 2-D tensor copy into the same swizzled layout, completing on a
//     per-stage mbarrier): that takes 5 of a thread's 9 copies, with their address arithmetic, out
//     of every k-tile of the 128 x 160 variants. Older targets copy B with cp.async like A.
//   * Shared rows are unpadded and XOR-swizzled in 16-byte units (unit_offset): ldmatrix and the
//     copies are conflict-free and the ring holds more stages.
//   * A kStages-deep cp.async ring keeps kStages - 1 k-tiles in flight. A warp loads the mma
//     fragments of k step i + 1 (across the barrier into the next k-tile) while the mma of step i
//     run: B fragments double-buffered, each A fragment reloaded right after its last mma.
//   * Split-K (blockIdx.z): when a shape has too few output tiles to fill the device, each z
//     slice reduces a contiguous range of k-tiles and writes fp32 partial sums; the split-K
//     reduce kernel adds them and rounds. Otherwise the block rounds and writes y directly.
//   * Built for targets older than sm_80 (no cp.async, no bf16 mma) the kernel only writes
//     quiet NaN into its output tile, so running such code fails any correctness check visibly.
#include "kernels/conv/conv_kernels.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "harness/util/cuda_check.hpp"
#include "kernels/common/convert.cuh"
#include "kernels/common/grouped_tile.cuh"
#include "kernels/common/shared_memory_opt_in.hpp"
#include "kernels/common/swizzle_atom.hpp"
#include "kernels/common/tensor_core.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma_pipeline.cuh"
#include "kernels/conv/conv_gather.cuh"
#include "kernels/conv/conv_tc_tiles.cuh"

namespace archbench::kernels::conv {
namespace {

using namespace tc;  // TileConfig, the variants, TileLoader, fragment_offsets, accumulator_position
using namespace tensor_core;  // ElementTraits, cp.async, ldmatrix, mma (kernels/common/tensor_core.cuh)

constexpr int kGroupM = 8;  // block order, see grouped_tile

// The gathered input copies go to L2 only (cp.async.cg), like the filter copies. Taps (r, s) and
// (r, s + 1) of neighbouring output pixels read the same input chunks C / kBlockK k-tiles apart,
// which L1 might serve when C is small, but .ca was level or slower for every chosen variant and
// shape (docs/kernel-choices.md, "conv_tc: L2-only input copies").

template <typename T, class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocksPerSm)
    conv_tc(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ y, float* __restrict__ partial,
            ConvParams p, const __grid_constant__ CUtensorMap filter_map) {
  using Traits = ElementTraits<T>;
  const auto [tile_m, tile_n] = grouped_tile<kGroupM>();
  const int tid = static_cast<int>(threadIdx.x);
  const int split = static_cast<int>(blockIdx.z);
  const bool split_k = gridDim.z > 1;
  // With split-K this block's fp32 partial sums go to slice `split` of the workspace.
  float* const slice = split_k ? partial + static_cast<std::size_t>(split) * p.M * p.K : nullptr;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int kFragsM = Cfg::kFragsM;
  constexpr int kFragsN = Cfg::kFragsN;
  constexpr int kSteps = Cfg::kSteps;
  constexpr int kStages = Cfg::kStages;
  constexpr std::uint32_t kStageBytes = Cfg::kStageBytes;
#if __CUDA_ARCH__ >= 900
  constexpr bool kFilterByCopyEngine = Cfg::kFilterTileCopy;
#else
  constexpr bool kFilterByCopyEngine = false;
#endif
  extern __shared__ __align__(128) unsigned char smem[];
  // With the copy engine the stages start a swizzle atom (kLaunchSmemBytes has the slack).
  const std::uint32_t smem_base =
      kFilterByCopyEngine ? swizzle_atom_aligned(smem_address(smem)) : smem_address(smem);
  const tma::RingBarriers<kStages> filter_full{smem_base + Cfg::kBarrierOffset};
  if constexpr (kFilterByCopyEngine) {
    if (tid == 0) {
      filter_full.init();
      tma::prefetch_map(&filter_map);
    }
    __syncthreads();
  }

  // ---- Copies (conv_tc_tiles.cuh): this z slice's k-tiles, gathered with cp.async.
  const SliceTiles tiles = slice_tiles(p, split);
  TileLoader<Cfg> loader(p, tile_m, tile_n, tid, tiles.begin);
  // A valid copy's offset is never negative, so it is added as unsigned: the compiler then drops
  // the sign extension (and its select) from every copy's 64-bit address.
  const int filter_row = tile_n * Cfg::kBlockN;  // (lambdas may not capture structured bindings in C++17)
  auto load_tile = [&](int k_tile, int stage) {
    const std::uint32_t stage_offset = stage * kStageBytes;
    if constexpr (kFilterByCopyEngine) {
      if (tid == 0) {
        const std::uint32_t bar = filter_full.arm(stage, Cfg::kBlockN * Cfg::kRowBytes);
        tma::load_2d(smem_base + stage_offset + Cfg::kATileBytes, &filter_map, bar, k_tile * Cfg::kBlockK,
                     filter_row);
      }
    }
    loader.load(p, k_tile, [&](bool filter, std::uint32_t dst, int offset, bool valid) {
      if (kFilterByCopyEngine && filter) return;  // the copy engine's (the offsets are then dead code)
      const auto element = static_cast<unsigned>(offset);
      cp_async<Cfg::kChunk * 2>(smem_base + stage_offset + dst, (filter ? w : x) + element, valid);
    });
  };
  // Before reading local k-tile t: its filter tile has landed.
  auto wait_filter = [&](int t) {
    if constexpr (kFilterByCopyEngine) filter_full.wait(t);
  };

  // ---- Fragments: this lane's ldmatrix row addresses per k step (conv_tc_tiles.cuh).
  std::uint32_t a_lane[kSteps];
  std::uint32_t b_lane[kSteps];
#pragma unroll
  for (int s = 0; s < kSteps; ++s) {
    const FragmentOffsets f = fragment_offsets<Cfg>(tid, s);
    a_lane[s] = smem_base + f.a;
    b_lane[s] = smem_base + f.b;
  }
  float acc[kFragsM][kFragsN][4] = {};
  // B fragments are double-buffered by k-step parity; A fragments are single-buffered, each
  // refilled for the next step right after its last mma (64 x 80 warp tiles need the registers).
  std::uint32_t a_frag[kFragsM][4];
  std::uint32_t b_frag[2][kFragsN][2];
  auto load_a = [&](int mi, int step, std::uint32_t stage_offset) {
    ldmatrix_x4(a_lane[step] + stage_offset + mi * Cfg::kAFragmentBytes, a_frag[mi]);
  };
  auto load_b = [&](int buf, int step, std::uint32_t stage_offset) {
#pragma unroll
    for (int nj = 0; nj < kFragsN / 2; ++nj) {
      ldmatrix_x4(b_lane[step] + stage_offset + nj * Cfg::kBFragmentPairBytes, b_frag[buf][2 * nj][0],
                  b_frag[buf][2 * nj][1], b_frag[buf][2 * nj + 1][0], b_frag[buf][2 * nj + 1][1]);
    }
  };
  auto next_slot = [](std::uint32_t offset) {
    return offset + kStageBytes == kStages * kStageBytes ? 0u : offset + kStageBytes;
  };

  // ---- Pipeline. One commit group per k-tile, committed even when empty, so that group g is
  // local tile g and wait_group<kStages-2> after g + kStages - 1 commits means "tile g has landed".
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < tiles.count) {
      load_tile(tiles.begin + s, s);
    }
    cp_async_commit();
  }
  cp_async_wait<kStages - 2>();
  __syncthreads();
  std::uint32_t read_slot = 0;      // the k-tile being multiplied
  int write_stage = kStages - 1;    // the k-tile being fetched
  if (tiles.count > 0) {
    wait_filter(0);
#pragma unroll
    for (int mi = 0; mi < kFragsM; ++mi) {
      load_a(mi, 0, read_slot);
    }
    load_b(0, 0, read_slot);
  }
  for (int kt = 0; kt < tiles.count; ++kt) {
#pragma unroll
    for (int step = 0; step < kSteps; ++step) {
      if (step == kSteps - 1) {
        // Before the first fragments of tile kt + 1 are read: this thread's copies of it are
        // done (kt + kStages commits so far) and the barrier makes everyone's visible. It also
        // proves every warp has read all of tile kt, whose slot the copies at step 0 of the next
        // iteration refill.
        cp_async_wait<kStages - 2>();
        __syncthreads();
        read_slot = next_slot(read_slot);
        if (kt + 1 < tiles.count) wait_filter(kt + 1);
      }
      // The fragments of the next k step: of this tile, or of tile kt + 1 after the barrier.
      const bool next = step < kSteps - 1 || kt + 1 < tiles.count;
      const int next_step = (step + 1) % kSteps;
      if (next) {
        load_b((step + 1) % 2, next_step, read_slot);
      }
      if (step == 0) {
        // Tile kt + kStages - 1 into the slot of tile kt - 1, which every warp finished reading
        // before the barrier of the previous iteration.
        const int fetch = kt + kStages - 1;
        if (fetch < tiles.count) {
          load_tile(tiles.begin + fetch, write_stage);
        }
        cp_async_commit();
        write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
      }
#pragma unroll
      for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
        for (int ni = 0; ni < kFragsN; ++ni) {
          mma_16816<T>(acc[mi][ni], a_frag[mi], b_frag[step % 2][ni]);
        }
        if (next) {
          load_a(mi, next_step, read_slot);
        }
      }
    }
  }
  // Groups still pending here are empty (tiles past the slice).

  const WarpPosition wp = warp_position<Cfg>(tid / 32);
  if constexpr (Cfg::kWarpsK > 1) {
    // ---- Sliced K: groups 1.. hand their sums to group 0 through the (now idle) ring, one
    // group at a time: the 4 sums of mma tile (mi, ni) of thread t of a group as the float4
    // (mi * kFragsN + ni) * (group threads) + t (consecutive threads, consecutive 16 bytes).
    constexpr int kGroupThreads = Cfg::kWarpsMN * 32;
    float4* const exchange = reinterpret_cast<float4*>(smem);
    const int group_tid = tid % kGroupThreads;
    cp_async_wait<0>();
    __syncthreads();
#pragma unroll 1
    for (int g = 1; g < Cfg::kWarpsK; ++g) {
      if (wp.wk == g) {
#pragma unroll
        for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
          for (int ni = 0; ni < kFragsN; ++ni) {
            const float* a = acc[mi][ni];
            exchange[(mi * kFragsN + ni) * kGroupThreads + group_tid] = make_float4(a[0], a[1], a[2], a[3]);
          }
        }
      }
      __syncthreads();
      if (wp.wk == 0) {
#pragma unroll
        for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
          for (int ni = 0; ni < kFragsN; ++ni) {
            const float4 v = exchange[(mi * kFragsN + ni) * kGroupThreads + group_tid];
            acc[mi][ni][0] += v.x;
            acc[mi][ni][1] += v.y;
            acc[mi][ni][2] += v.z;
            acc[mi][ni][3] += v.w;
          }
        }
      }
      __syncthreads();  // the exchange area is free for the next group
    }
    if (wp.wk != 0) {
      return;
    }
  }

  // ---- Epilogue. Element pairs (c0, c1) and (c2, c3) of an mma tile are adjacent columns
  // (accumulator_position). A pair is one 2-element store when K is even (every pair is then
  // aligned); otherwise, and at the last column, elements go one by one.
  const bool pair_ok = p.K % 2 == 0;
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kFragsN; ++ni) {
#pragma unroll
      for (int e = 0; e < 4; e += 2) {
        const TilePosition at = accumulator_position<Cfg>(tid, mi, ni, e);
        const int row = tile_m * Cfg::kBlockM + at.row;
        const int col = tile_n * Cfg::kBlockN + at.col;
        if (row >= p.M) {
          continue;
        }
        const std::size_t row_offset = static_cast<std::size_t>(row) * p.K;
        const float v0 = acc[mi][ni][e];
        const float v1 = acc[mi][ni][e + 1];
        if (split_k) {
          float* out = slice + row_offset;
          if (pair_ok && col + 1 < p.K) {
            *reinterpret_cast<float2*>(out + col) = make_float2(v0, v1);
          } else {
            if (col < p.K) out[col] = v0;
            if (col + 1 < p.K) out[col + 1] = v1;
          }
        } else {
          T* out = y + row_offset;
          if (pair_ok && col + 1 < p.K) {
            *reinterpret_cast<typename Traits::Pair*>(out + col) = Traits::from_floats(v0, v1);
          } else {
            if (col < p.K) out[col] = Traits::from_float(v0);
            if (col + 1 < p.K) out[col + 1] = Traits::from_float(v1);
          }
        }
      }
    }
  }
#else
  // Pre-sm_80 device code (and the host pass): no cp.async / bf16 mma. Poison the output tile.
  (void)x;
  (void)w;
  (void)filter_map;
  for (int i = tid; i < Cfg::kBlockM * Cfg::kBlockN; i += Cfg::kThreads) {
    const int row = tile_m * Cfg::kBlockM + i / Cfg::kBlockN;
    const int col = tile_n * Cfg::kBlockN + i % Cfg::kBlockN;
    if (row < p.M && col < p.K) {
      const std::size_t at = static_cast<std::size_t>(row) * p.K + col;
      if (split_k) {
        slice[at] = __int_as_float(0x7FC00000);
      } else {
        y[at] = Traits::nan();
      }
    }
  }
#endif
}

// One tile variant: its kernel, shared-memory opt-in, occupancy and launch.
template <typename T, class Cfg>
struct Variant {
  // The filter as the [K, R*S*C] matrix it is, read in boxes of kBlockN rows x one k-tile, with
  // the tiles' swizzle. Unused by code built for targets before sm_90, and by the 8-byte-copy
  // variant (whose rows are not 16-byte strided): an empty map then.
  static CUtensorMap filter_map(const T* w, const ConvParams& p) {
    if constexpr (!Cfg::kFilterTileCopy) {
      return CUtensorMap{};
    } else {
      return matrix_tensor_map(w, p.K, p.Kg, Cfg::kBlockN, Cfg::kBlockK, "conv_tc");
    }
  }

  static const void* kernel() { return reinterpret_cast<const void*>(&conv_tc<T, Cfg>); }

  // More than 48 KB of dynamic shared memory needs an opt-in (kernels/common/shared_memory_opt_in).
  static void opt_in_shared_memory() { opt_in_dynamic_shared_memory(kernel(), Cfg::kLaunchSmemBytes, "conv_tc"); }

  // Whether the current device gives a block the variant's shared memory.
  static bool fits_device() { return Cfg::kLaunchSmemBytes <= shared_memory_per_block_limit(); }

  static int resident_blocks_per_sm() {
    opt_in_shared_memory();
    int blocks = 0;
    ARCHBENCH_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel(), Cfg::kThreads, Cfg::kLaunchSmemBytes));
    return blocks;
  }

  static void launch(const void* x, const void* w, void* y, float* workspace, const ConvParams& p, int splits,
                     cudaStream_t stream) {
    opt_in_shared_memory();
    const dim3 grid((p.K + Cfg::kBlockN - 1) / Cfg::kBlockN, (p.M + Cfg::kBlockM - 1) / Cfg::kBlockM, splits);
    conv_tc<T, Cfg><<<grid, Cfg::kThreads, Cfg::kLaunchSmemBytes, stream>>>(
        static_cast<const T*>(x), static_cast<const T*>(w), static_cast<T*>(y), workspace, p,
        filter_map(static_cast<const T*>(w), p));
    ARCHBENCH_CHECK_LAUNCH();
  }
};

// Calls f(Variant<T, Cfg>{}) for the plan's tile variant and dtype's element type.
template <typename T, typename F, class... Cfgs>
bool visit_tile(const TensorCoreTile& tile, ConfigList<Cfgs...>, F& f) {
  return ((same_tile(tile, tile_shape<Cfgs>()) ? (f(Variant<T, Cfgs>{}), true) : false) || ...);
}

template <typename F>
void with_variant(DType dtype, const ConvPlan& plan, F&& f) {
  dispatch_half_storage(dtype, "conv_tc", [&](auto element) {
    if (!visit_tile<decltype(element)>(tile_of(plan), AllTiles{}, f)) {
      throw std::invalid_argument("conv_tc: no tile variant " + plan.str() +
                                  " (kTensorCoreTiles in conv_plan.hpp lists those built)");
    }
  });
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

ConvPlan plan_conv_tc(DType dtype, const ConvDims& d) {
  bool fits = false;
  with_variant(dtype, tensor_core_tiles(d), [&](auto v) { fits = decltype(v)::fits_device(); });
  return plan_conv_tc(dtype, d, tensor_core_tiles(d, !fits));
}

ConvPlan plan_conv_tc(DType dtype, const ConvDims& d, const ConvPlan& tiles) {
  int blocks_per_sm = 0;
  with_variant(dtype, tiles, [&](auto v) { blocks_per_sm = decltype(v)::resident_blocks_per_sm(); });
  if (blocks_per_sm < 1) {
    throw std::runtime_error("plan_conv_tc: variant " + conv_tc_kernel_name(dtype, tiles) +
                             " cannot be resident on this device (shared memory or registers)");
  }
  int device = 0;
  int sms = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return with_split_k(tiles, d, 1LL * sms * blocks_per_sm);
}

void launch_conv_tc(DType dtype, const void* x, const void* w, void* y, float* workspace, const ConvDims& d,
                    const ConvPlan& plan, cudaStream_t stream) {
  const ConvParams p = make_conv_params(d, plan, "launch_conv_tc");
  if (d.C % plan.chunk != 0) {
    throw std::invalid_argument("launch_conv_tc: " + d.str() + ": C is not a multiple of the plan's " +
                                std::to_string(plan.chunk) + "-element copies");
  }
  if (!aligned16(x) || !aligned16(w) || !aligned16(y) || !aligned16(workspace)) {
    throw std::invalid_argument("launch_conv_tc: x, w, y and the workspace must be 16-byte aligned");
  }
  if (plan.splits > 1 && workspace == nullptr) {
    throw std::invalid_argument("launch_conv_tc: plan " + plan.str() + " needs a workspace");
  }
  with_variant(dtype, plan, [&](auto v) { decltype(v)::launch(x, w, y, workspace, p, plan.splits, stream); });
  if (plan.splits > 1) {
    launch_conv_splitk_reduce(dtype, workspace, y, static_cast<std::size_t>(p.M) * p.K, plan.splits, stream);
  }
}

const void* conv_tc_kernel(DType dtype, const ConvPlan& tiles) {
  const void* k = nullptr;
  with_variant(dtype, tiles, [&](auto v) { k = decltype(v)::kernel(); });
  return k;
}

std::string conv_tc_kernel_name(DType dtype, const ConvPlan& tiles) {
  std::string name = "conv_tc_" + std::string(dtype_name(dtype)) + "_m" + std::to_string(tiles.block_m) + "_n" +
                     std::to_string(tiles.block_n) + "_k" + std::to_string(tiles.block_k);
  if (tiles.warps_k > 1) name += "_sk" + std::to_string(tiles.warps_k);
  return name + "_c" + std::to_string(tiles.chunk);
}

}  // namespace archbench::kernels::conv
