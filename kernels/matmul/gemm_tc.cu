// fp16 / bf16 GEMM on the tensor cores: C[M,N] = A[M,K] · B[N,K]ᵀ (see gemm_kernels.hpp),
// with warp-level mma.sync.m16n8k16 and fp32 accumulation. Portable: the same mma code for every
// target from sm_80 up (no wgmma; gemm_wgmma.cu is the Hopper-only GEMM); built for sm_90 and newer
// the copy engine (TMA) fills the shared-memory ring instead of cp.async.
//
// Structure (gemm_tc_kernel.cuh has the block, gemm_tc_tiles.cuh the tiling and index maths):
//   * One kernel, gemm_tc, instantiated for __half and __nv_bfloat16: a block of 256 threads
//     (8 warps, 4 x 2) owns 256 x 128 of C; one block per SM.
//   * Every warp owns 64 x 64 of C (4 x 8 mma tiles, 128 fp32 accumulators per thread), fed by
//     ldmatrix.x4 from shared memory with fragments double-buffered in registers.
//   * Global -> shared copies use cp.async (16 bytes, no register staging), or on sm_90 and newer
//     one tensor copy per tile, into a 4-stage ring of 32-wide k-tiles (96 KB) whose rows are
//     XOR-swizzled: conflict-free for ldmatrix and for the copies, without padding.
//   * The epilogue rounds each warp's outputs into shared memory and stores 16 bytes per lane,
//     whole 128-byte row segments of C.
//   * Blocks visit tiles in groups of 8 row tiles (grouped_tile) so that concurrent blocks share
//     operands in L2.
//   * Built for targets older than sm_80 (no cp.async, no bf16 mma) the kernel only fills its C
//     tile with quiet NaN, so running such code fails any correctness check visibly.
// Why this tiling and not a wider one: gemm_tc_tiles.cuh, KernelTiling; its measurements: docs/kernel-choices.md.
#include "kernels/matmul/gemm_kernels.hpp"
#include "kernels/matmul/gemm_launch_checks.hpp"
#include "kernels/matmul/gemm_tc_kernel.cuh"
#include "kernels/matmul/gemm_tc_tiles.cuh"
#include "kernels/common/shared_memory_opt_in.hpp"
#include "kernels/common/tensor_map.hpp"
#include "harness/util/cuda_check.hpp"

namespace archbench::kernels::matmul {
namespace {

using tc::KernelTiling;

template <typename T>
__global__ void __launch_bounds__(KernelTiling::kThreads, KernelTiling::kMinBlocksPerSm)
    gemm_tc(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N, int K,
            const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b) {
  tc::gemm_tc_block<T, KernelTiling>(A, B, C, M, N, K, &map_a, &map_b);
}

template <typename T>
void launch(const char* fn, const T* A, const T* B, T* C, int M, int N, int K, cudaStream_t stream) {
  validate_gemm_launch(fn, GemmTiling{KernelTiling::kBlockM, KernelTiling::kBlockN, tc::kChunkElems}, A, B, C, M, N, K);
  // 97 KB of dynamic shared memory: above the default 48 KB limit.
  opt_in_dynamic_shared_memory(reinterpret_cast<const void*>(&gemm_tc<T>), KernelTiling::kLaunchSmemBytes,
                               "gemm_tc");
  // The tiles as the copy engine reads them (used only by the sm_90+ code of the kernel).
  const CUtensorMap map_a = matrix_tensor_map(A, M, K, KernelTiling::kBlockM, KernelTiling::kBlockK, "gemm_tc");
  const CUtensorMap map_b = matrix_tensor_map(B, N, K, KernelTiling::kBlockN, KernelTiling::kBlockK, "gemm_tc");
  const dim3 grid((N + KernelTiling::kBlockN - 1) / KernelTiling::kBlockN,
                  (M + KernelTiling::kBlockM - 1) / KernelTiling::kBlockM);
  gemm_tc<T><<<grid, KernelTiling::kThreads, KernelTiling::kLaunchSmemBytes, stream>>>(A, B, C, M, N, K, map_a,
                                                                                       map_b);
  ARCHBENCH_CUDA_CHECK(cudaGetLastError());
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

}  // namespace archbench::kernels::matmul
