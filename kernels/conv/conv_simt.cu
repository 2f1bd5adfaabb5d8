// fp32 implicit-GEMM convolution on the SIMT cores (see conv_kernels.hpp), any compute capability.
//
// The tiling of the SIMT GEMM (kernels/matmul/gemm_simt.cu) with the A operand gathered from the
// NHWC input:
//   * A block of 256 threads owns 128 output pixels x 128 output channels and walks the
//     reduction (r, s, c) in k-tiles of 8. Each thread keeps an 8x8 micro-tile in registers: per
//     k it reads 8 A and 8 B values from shared memory and does 64 FMAs.
//   * Per k-tile every thread fetches one float4 of A (4 consecutive channels of one filter tap
//     of one output pixel; zeros on the padding and past the ends) and one float4 of the KRSC
//     filter; C % 4 == 0 keeps a float4 inside one tap. The slices are stored transposed
//     (k-major), so a thread's 4 consecutive pixels (or channels) for one k are one float4 load.
//   * Two shared buffers: the next k-tile is fetched into registers while the current one is
//     used, then written to the other buffer; one barrier per k-tile.
//   * Split-K over blockIdx.z as in the tensor-core kernel: fp32 partial sums per slice, added
//     by the split-K reduce kernel.
#include "kernels/conv/conv_kernels.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "harness/util/cuda_check.hpp"
#include "kernels/common/grouped_tile.cuh"
#include "kernels/common/simt_tile.cuh"
#include "kernels/conv/conv_gather.cuh"
#include "kernels/conv/conv_simt_tiles.cuh"

namespace archbench::kernels::conv {
namespace {

using namespace simt;  // tile sizes, SimtLoader (conv_simt_tiles.cuh)

// The micro-tiling of the SIMT GEMM (kernels/common/simt_tile.cuh).
using simt_tile::kSmemStride;
using simt_tile::kThreadTile;
using simt_tile::kThreadsPerDim;
constexpr int kGroupM = 8;

static_assert(kBlockM == simt_tile::kBlockTile && kBlockN == simt_tile::kBlockTile, "128 x 128 block tiles");
static_assert(kThreads == simt_tile::kThreads, "16x16 thread grid");

__global__ void __launch_bounds__(kThreads, 2)
    conv_simt_f32(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                  float* __restrict__ partial, ConvParams p) {
  __shared__ __align__(16) float As[2][kBlockK][kSmemStride];
  __shared__ __align__(16) float Bs[2][kBlockK][kSmemStride];

  const auto [tile_m, tile_n] = grouped_tile<kGroupM>();
  const int tid = static_cast<int>(threadIdx.x);

  // Loader (conv_simt_tiles.cuh): one float4 of A and of B per thread per k-tile.
  const SliceTiles tiles = slice_tiles(p, static_cast<int>(blockIdx.z));
  SimtLoader loader(p, tile_m, tile_n, tid, tiles.begin);
  const int load_row = loader.row();
  const int load_k = loader.k();

  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float4 a_next = zero;
  float4 b_next = zero;
  // Fetches k-tile `k_tile` (global index) into registers.
  auto fetch = [&](int k_tile) {
    loader.load(p, k_tile, [&](bool filter, int offset, bool valid) {
      const float4 v = valid ? __ldg(reinterpret_cast<const float4*>((filter ? w : x) + offset)) : zero;
      if (filter) {
        b_next = v;
      } else {
        a_next = v;
      }
    });
  };
  auto stash = [&](int buf) { simt_tile::stash_k_major(As[buf], Bs[buf], load_k, load_row, a_next, b_next); };

  const int tx = tid % kThreadsPerDim;
  const int ty = tid / kThreadsPerDim;
  float acc[kThreadTile][kThreadTile] = {};

  if (tiles.count > 0) {
    fetch(tiles.begin);
    stash(0);
  }
  __syncthreads();

  for (int kt = 0; kt < tiles.count; ++kt) {
    const int buf = kt % 2;
    const bool has_next = kt + 1 < tiles.count;
    // Issue the next tile's global loads now; their latency hides behind the FMAs below.
    if (has_next) {
      fetch(tiles.begin + kt + 1);
    }
    simt_tile::multiply_slices(As[buf], Bs[buf], tx, ty, acc);
    // The other buffer was last read during step kt-1, which every thread finished before the
    // barrier that ended it; the barrier below publishes it for step kt+1 and keeps anyone from
    // overwriting `buf` (at step kt+1) while it is still read.
    if (has_next) {
      stash(buf ^ 1);
    }
    __syncthreads();
  }

  // With split-K this block's fp32 partial sums go to slice blockIdx.z of the workspace; rows of
  // K outputs there as in y.
  float* const out = gridDim.z > 1 ? partial + static_cast<std::size_t>(blockIdx.z) * p.M * p.K : y;
  simt_tile::store_micro_tile(out, p.M, p.K, tile_m, tile_n, tx, ty, acc);
}

bool aligned16(const void* ptr) { return reinterpret_cast<std::uintptr_t>(ptr) % 16 == 0; }

}  // namespace

ConvPlan plan_conv_simt(const ConvDims& d) {
  validate_own_conv(d, "plan_conv_simt");
  ConvPlan tiles;
  tiles.block_m = kBlockM;
  tiles.block_n = kBlockN;
  tiles.block_k = kBlockK;
  tiles.chunk = 4;
  int blocks_per_sm = 0;
  ARCHBENCH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks_per_sm, reinterpret_cast<const void*>(&conv_simt_f32), kThreads, 0));
  if (blocks_per_sm < 1) throw std::runtime_error("plan_conv_simt: conv_simt_f32 cannot be resident on this device");
  int device = 0;
  int sms = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return with_split_k(tiles, d, 1LL * sms * blocks_per_sm);
}

void launch_conv_simt_f32(const float* x, const float* w, float* y, float* workspace, const ConvDims& d,
                          const ConvPlan& plan, cudaStream_t stream) {
  if (plan.block_m != kBlockM || plan.block_n != kBlockN || plan.block_k != kBlockK || plan.warps_k != 1) {
    throw std::invalid_argument("launch_conv_simt_f32: plan " + plan.str() + " is not for the SIMT kernel's " +
                                std::to_string(kBlockM) + " x " + std::to_string(kBlockN) + " x " +
                                std::to_string(kBlockK) + " tiles");
  }
  const ConvParams p = make_conv_params(d, plan, "launch_conv_simt_f32");
  if (!aligned16(x) || !aligned16(w) || !aligned16(y) || !aligned16(workspace)) {
    throw std::invalid_argument("launch_conv_simt_f32: x, w, y and the workspace must be 16-byte aligned");
  }
  if (plan.splits > 1 && workspace == nullptr) {
    throw std::invalid_argument("launch_conv_simt_f32: plan " + plan.str() + " needs a workspace");
  }
  const dim3 grid((p.K + kBlockN - 1) / kBlockN, (p.M + kBlockM - 1) / kBlockM, plan.splits);
  conv_simt_f32<<<grid, kThreads, 0, stream>>>(x, w, y, workspace, p);
  ARCHBENCH_CHECK_LAUNCH();
  if (plan.splits > 1) {
    launch_conv_splitk_reduce(DType::F32, workspace, y, static_cast<std::size_t>(p.M) * p.K, plan.splits, stream);
  }
}

const void* conv_simt_f32_kernel() { return reinterpret_cast<const void*>(&conv_simt_f32); }

}  // namespace archbench::kernels::conv
