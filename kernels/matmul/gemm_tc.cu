// fp16 / bf16 GEMM on the tensor cores: C[M,N] = A[M,K] · B[N,K]ᵀ (see gemm_kernels.hpp),
// with warp-level mma.sync.m16n8k16 and fp32 accumulation. Portable: the same code for every
// target from sm_80 up (no wgmma / TMA; gemm_wgmma.cu is the Hopper-only GEMM).
//
// Structure (gemm_tc_kernel.cuh has the block, gemm_tc_tiles.cuh the tilings and index maths):
//   * Two tilings, each its own __global__ function, instantiated for __half and __nv_bfloat16:
//     gemm_tc (wide: 128 x 256 per block, 8 warps, one block per SM) and gemm_tc_compact
//     (128 x 128, 4 warps, two blocks per SM). choose_tiling picks per product: compact for short
//     K (K <= 512), for products with fewer wide tiles than SMs, and where the device's shared
//     memory per block is too small for the wide ring; wide otherwise.
//   * Every warp owns 64 x 64 of C (4 x 8 mma tiles, 128 fp32 accumulators per thread), fed by
//     ldmatrix.x4 from shared memory with fragments double-buffered in registers.
//   * Global -> shared copies use cp.async (16 bytes, no register staging) into a 3-stage ring of
//     64-wide k-tiles whose 128-byte rows are XOR-swizzled: conflict-free for ldmatrix and for
//     the copies, without padding.
//   * The epilogue rounds each warp's outputs into shared memory and stores 16 bytes per lane,
//     whole 128-byte row segments of C.
//   * Blocks visit tiles in groups of 8 row tiles (grouped_tile) so that concurrent blocks share
//     operands in L2.
//   * Built for targets older than sm_80 (no cp.async, no bf16 mma) the kernels only fill their C
//     tile with quiet NaN, so running such code fails any correctness check visibly.
#include "kernels/matmul/gemm_kernels.hpp"
#include "kernels/matmul/gemm_launch_checks.hpp"
#include "kernels/matmul/gemm_tc_kernel.cuh"
#include "kernels/matmul/gemm_tc_tiles.cuh"
#include "kernels/common/launch_config.hpp"
#include "kernels/common/shared_memory_opt_in.hpp"
#include "harness/util/cuda_check.hpp"

namespace archbench::kernels::matmul {
namespace {

using tc::CompactTiling;
using tc::WideTiling;

template <typename T>
__global__ void __launch_bounds__(WideTiling::kThreads, WideTiling::kMinBlocksPerSm)
    gemm_tc(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N, int K) {
  tc::gemm_tc_block<T, WideTiling>(A, B, C, M, N, K);
}

template <typename T>
__global__ void __launch_bounds__(CompactTiling::kThreads, CompactTiling::kMinBlocksPerSm)
    gemm_tc_compact(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N, int K) {
  tc::gemm_tc_block<T, CompactTiling>(A, B, C, M, N, K);
}

template <class Tiling, typename T>
void launch_tiled(void (*kernel)(const T*, const T*, T*, int, int, int), const char* what, const T* A, const T* B,
                  T* C, int M, int N, int K, cudaStream_t stream) {
  // 144 / 96 KB of dynamic shared memory: above the default 48 KB limit.
  opt_in_dynamic_shared_memory(reinterpret_cast<const void*>(kernel), Tiling::kSmemBytes, what);
  const dim3 grid((N + Tiling::kBlockN - 1) / Tiling::kBlockN, (M + Tiling::kBlockM - 1) / Tiling::kBlockM);
  kernel<<<grid, Tiling::kThreads, Tiling::kSmemBytes, stream>>>(A, B, C, M, N, K);
  ARCHBENCH_CUDA_CHECK(cudaGetLastError());
}

template <typename T>
void launch(const char* fn, const T* A, const T* B, T* C, int M, int N, int K, cudaStream_t stream) {
  // The compact tiling has the most blocks: its grid bounds both.
  validate_gemm_launch(fn, GemmTiling{CompactTiling::kBlockM, CompactTiling::kBlockN, tc::kChunkElems}, A, B, C, M, N, K);
  if (tc::choose_tiling(M, N, K, current_sm_count(), max_dynamic_shared_memory_per_block()) == tc::TcTiling::Wide) {
    launch_tiled<WideTiling>(&gemm_tc<T>, "gemm_tc", A, B, C, M, N, K, stream);
  } else {
    launch_tiled<CompactTiling>(&gemm_tc_compact<T>, "gemm_tc_compact", A, B, C, M, N, K, stream);
  }
}

}  // namespace

void launch_gemm_tc_f16(const __half* A, const __half* B, __half* C, int M, int N, int K, cudaStream_t stream) {
  launch("launch_gemm_tc_f16", A, B, C, M, N, K, stream);
}

void launch_gemm_tc_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
                         cudaStream_t stream) {
  launch("launch_gemm_tc_bf16", A, B, C, M, N, K, stream);
}

const void* gemm_tc_f16_kernel() { return reinterpret_cast<const void*>(&gemm_tc<__half>); }
const void* gemm_tc_bf16_kernel() { return reinterpret_cast<const void*>(&gemm_tc<__nv_bfloat16>); }
const void* gemm_tc_compact_f16_kernel() { return reinterpret_cast<const void*>(&gemm_tc_compact<__half>); }
const void* gemm_tc_compact_bf16_kernel() { return reinterpret_cast<const void*>(&gemm_tc_compact<__nv_bfloat16>); }

}  // namespace archbench::kernels::matmul
