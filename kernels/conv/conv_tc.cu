// fp16 / bf16 implicit-GEMM convolution on the tensor cores (see conv_kernels.hpp), with
// warp-level mma.sync.m16n8k16 and fp32 accumulation.
//
// Structure (one kernel template over the element type and the tile variant):
//   * A block owns 128 output pixels (GEMM rows) x kBlockN output channels (128: 8 warps in a
//     2 x 4 grid; 64: 4 warps in 2 x 2) and walks the reduction (r, s, c) in k-tiles of 32.
//     Every warp owns 64 x 32 outputs = 4 x 4 mma tiles of 16x8 (64 fp32 accumulators per
//     thread): per 16-wide k step it loads 4 A and 4 B fragments and issues 16 mma.
//   * The A tile is gathered from the NHWC input with cp.async: a 16-byte (or, for C % 8 != 0,
//     8-byte) copy holds 8 (4) consecutive channels of one filter tap (r, s) of one output pixel.
//     Taps on the zero padding, rows past N*P*Q and k past R*S*C use the zero-fill form (source
//     size 0). Each thread walks its copy position (r, s, c) along the reduction with a cursor,
//     so no division is needed per k-tile. The B tile is the KRSC filter, row k = output channel,
//     which is already the "col" operand layout mma wants.
//   * A 4-stage cp.async ring keeps three k-tiles in flight while the tensor cores work on a
//     fourth; ldmatrix hands out the mma fragment layout from shared memory.
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
#include "kernels/common/tensor_core.cuh"
#include "kernels/common/warp_tile.cuh"
#include "kernels/conv/conv_gather.cuh"
#include "kernels/conv/conv_tc_tiles.cuh"

namespace archbench::kernels::conv {
namespace {

using namespace tc;  // tile sizes, TileLoader, accumulator_position (conv_tc_tiles.cuh)

constexpr int kGroupM = 8;  // block order, see grouped_tile

using namespace tensor_core;  // ElementTraits, cp.async, ldmatrix, mma (kernels/common/tensor_core.cuh)

template <typename T, int kBlockN, int kChunk>
__global__ void __launch_bounds__(Tiles<kBlockN, kChunk>::kThreads, Tiles<kBlockN, kChunk>::kMinBlocksPerSm)
    conv_tc(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ y, float* __restrict__ partial,
            ConvParams p) {
  using Cfg = Tiles<kBlockN, kChunk>;
  using Traits = ElementTraits<T>;
  const auto [tile_m, tile_n] = grouped_tile<kGroupM>();
  const int tid = static_cast<int>(threadIdx.x);
  const int split = static_cast<int>(blockIdx.z);
  const bool split_k = gridDim.z > 1;
  // With split-K this block's fp32 partial sums go to slice `split` of the workspace.
  float* const slice = split_k ? partial + static_cast<std::size_t>(split) * p.M * p.K : nullptr;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ __align__(16) unsigned char smem[];
  const std::uint32_t smem_base = smem_address(smem);

  // ---- Copies (conv_tc_tiles.cuh): this z slice's k-tiles, gathered with cp.async.
  const SliceTiles tiles = slice_tiles(p, split);
  TileLoader<kBlockN, kChunk> loader(p, tile_m, tile_n, tid, tiles.begin);
  auto load_tile = [&](int k_tile, int stage) {
    const std::uint32_t stage_base = smem_base + stage * Cfg::kStageBytes;
    loader.load(p, k_tile, [&](bool filter, std::uint32_t dst, int offset, bool valid) {
      const T* base = filter ? w : x;
      cp_async<kChunk * 2>(stage_base + dst, base + offset, valid);
    });
  };

  // ---- Fragment mapping. Warp w owns rows warp_m*64.. and channels warp_n*32.. of the tile.
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int warp_m = warp / Cfg::kWarpsN;
  const int warp_n = warp % Cfg::kWarpsN;
  // A (16x16, row-major in smem): matrices 0..3 of one ldmatrix.x4 are rows 0-7/k 0-7,
  // rows 8-15/k 0-7, rows 0-7/k 8-15, rows 8-15/k 8-15: the register order a0..a3 of the mma A
  // operand. So lane l points at row l%16, k offset (l/16)*8.
  const std::uint32_t a_frag_base = smem_base + ((warp_m * kWarpM + lane % 16) * kSmemStride + (lane / 16) * 8) * 2;
  // B (Bs[n][k]): an 8x8 block read without transposition gives lane l the values n = l/4,
  // k = 2*(l%4) + {0,1}: register b0 (k 0-7) or b1 (k 8-15). One x4 covers two n8 tiles:
  // matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15).
  const int b_lane_n = (lane & 7) + ((lane >> 4) << 3);
  const int b_lane_k = ((lane >> 3) & 1) * 8;
  const std::uint32_t b_frag_base =
      smem_base + Cfg::kATileBytes + ((warp_n * kWarpN + b_lane_n) * kSmemStride + b_lane_k) * 2;

  float acc[kFragsM][kFragsN][4] = {};

  auto compute_tile = [&](int stage) {
    warp_tile::multiply_k_tile<T>(acc, a_frag_base, b_frag_base, stage * Cfg::kStageBytes);
  };

  // ---- Pipeline. One commit group per k-tile, committed even when empty, so that group g is
  // local tile g and wait_group<kStages-2> at step kt means "tile kt has landed".
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < tiles.count) {
      load_tile(tiles.begin + s, s);
    }
    cp_async_commit();
  }
  for (int kt = 0; kt < tiles.count; ++kt) {
    // This thread's copies of tile kt are done; the barrier makes everyone's visible. It also
    // proves every warp finished computing tile kt-1, whose slot (kt-1) % 4 == (kt+3) % 4 is
    // refilled just below.
    cp_async_wait<kStages - 2>();
    __syncthreads();
    const int next = kt + kStages - 1;
    if (next < tiles.count) {
      load_tile(tiles.begin + next, next % kStages);
    }
    cp_async_commit();
    compute_tile(kt % kStages);
  }
  // Groups still pending here are empty (tiles past the slice): nothing writes shared memory
  // after the loop.

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
        const TilePosition at = accumulator_position<kBlockN>(tid, mi, ni, e);
        const int row = tile_m * kBlockM + at.row;
        const int col = tile_n * kBlockN + at.col;
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
  for (int i = tid; i < kBlockM * kBlockN; i += Cfg::kThreads) {
    const int row = tile_m * kBlockM + i / kBlockN;
    const int col = tile_n * kBlockN + i % kBlockN;
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
template <typename T, int kBlockN, int kChunk>
struct Variant {
  using Cfg = Tiles<kBlockN, kChunk>;

  static const void* kernel() { return reinterpret_cast<const void*>(&conv_tc<T, kBlockN, kChunk>); }

  // More than 48 KB of dynamic shared memory needs an opt-in (kernels/common/shared_memory_opt_in).
  static void opt_in_shared_memory() { opt_in_dynamic_shared_memory(kernel(), Cfg::kSmemBytes, "conv_tc"); }

  static int resident_blocks_per_sm() {
    opt_in_shared_memory();
    int blocks = 0;
    ARCHBENCH_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel(), Cfg::kThreads, Cfg::kSmemBytes));
    return blocks;
  }

  static void launch(const void* x, const void* w, void* y, float* workspace, const ConvParams& p, int splits,
                     cudaStream_t stream) {
    opt_in_shared_memory();
    const dim3 grid((p.K + kBlockN - 1) / kBlockN, (p.M + kBlockM - 1) / kBlockM, splits);
    conv_tc<T, kBlockN, kChunk><<<grid, Cfg::kThreads, Cfg::kSmemBytes, stream>>>(
        static_cast<const T*>(x), static_cast<const T*>(w), static_cast<T*>(y), workspace, p);
    ARCHBENCH_CHECK_LAUNCH();
  }
};

// Calls f(Variant<T, block_n, chunk>{}) for the plan's tile variant and dtype's element type.
template <typename F>
void with_variant(DType dtype, const ConvPlan& plan, F&& f) {
  auto by_tiles = [&](auto element) {
    using T = decltype(element);
    if (plan.block_n == 128 && plan.chunk == 8) {
      f(Variant<T, 128, 8>{});
    } else if (plan.block_n == 64 && plan.chunk == 8) {
      f(Variant<T, 64, 8>{});
    } else if (plan.block_n == 64 && plan.chunk == 4) {
      f(Variant<T, 64, 4>{});
    } else {
      throw std::invalid_argument("conv_tc: no tile variant " + plan.str() + " (n128_c8, n64_c8, n64_c4 exist)");
    }
  };
  dispatch_half_storage(dtype, "conv_tc", by_tiles);
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

ConvPlan plan_conv_tc(DType dtype, const ConvDims& d) {
  const ConvPlan tiles = tensor_core_tiles(d);
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
  return with_split_k(tiles, d, kBlockM, kBlockK, 1LL * sms * blocks_per_sm);
}

void launch_conv_tc(DType dtype, const void* x, const void* w, void* y, float* workspace, const ConvDims& d,
                    const ConvPlan& plan, cudaStream_t stream) {
  const ConvParams p = make_conv_params(d, kBlockK, plan, "launch_conv_tc");
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
  return "conv_tc_" + std::string(dtype_name(dtype)) + "_n" + std::to_string(tiles.block_n) + "_c" +
         std::to_string(tiles.chunk);
}

}  // namespace archbench::kernels::conv
