// fp16 / bf16 GEMM for Hopper: C[M,N] = A[M,K] · B[N,K]ᵀ (see gemm_wgmma.hpp) with wgmma,
// TMA and mbarriers. Compiled for sm_90a only (CMakeLists.txt).
//
// Structure:
//   * A CTA of three warpgroups computes 128 x BN tiles of C (BN = 256, 224 or 192, chosen per
//     shape by gemm_wgmma_tiling.hpp). Warpgroup 0 is the producer: it gives registers back
//     (setmaxnreg) and one thread issues the tensor copies. Warpgroups 1 and 2 are consumers
//     (setmaxnreg up): each owns 64 rows of the tile, BN/2 fp32 accumulators per thread.
//   * K advances in steps of 64 halves = 128 bytes, exactly one 128-byte-swizzle row, through a
//     ring of STAGES shared-memory stages (A 128x64, B BNx64). The copy engine writes each tile
//     swizzled, the wgmma descriptors read it with the same swizzle: no bank conflicts, no
//     register staging. A `full` mbarrier per stage completes when its bytes have landed; an
//     `empty` one when every consumer that reads the stage has finished with it.
//   * Two CTAs form a cluster, stacked along M: they need the same B tile, so each loads half of
//     it and multicasts that half to both, cutting L2 traffic per CTA by a third. A stage is
//     therefore refilled only after the consumers of both CTAs released it.
//   * The grid is persistent (as many clusters as fit at once); tiles are walked in groups of 8
//     cluster rows so that concurrently running tiles share A and B in L2. The producer runs up
//     to STAGES steps ahead, into the next tile while the consumers store the last one.
//   * Consumers keep one wgmma group in flight: a stage is released once the group after it has
//     been issued and the group reading it has completed.
//   * Epilogue: accumulators rounded to the output type, stored straight from registers with
//     bounds checks; K tails and M/N edges of the inputs read as zeros (TMA out-of-bounds fill).
#include "kernels/matmul/gemm_launch_checks.hpp"
#include "kernels/matmul/gemm_wgmma.hpp"
#include "kernels/matmul/gemm_wgmma_tiling.hpp"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma_pipeline.cuh"
#include "kernels/common/wgmma_instructions.cuh"
#include "harness/util/cuda_check.hpp"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "gemm_wgmma.cu is compiled for sm_90a only (wgmma, setmaxnreg): see CMakeLists.txt"
#endif

namespace archbench::kernels::matmul {
namespace {

constexpr int kBlockM = kWgmmaTileM;
constexpr int kBlockK = 64;  // 64 halves = 128 bytes: one row of the 128-byte swizzle
constexpr int kRowBytes = kBlockK * 2;
constexpr int kConsumers = 2;
constexpr int kThreads = 128 * (1 + kConsumers);
constexpr int kCluster = kWgmmaCluster;
constexpr int kGroupRows = 8;        // cluster rows per raster group
constexpr int kProducerRegs = 40;    // setmaxnreg: the copy thread needs few
constexpr int kConsumerRegs = 232;   // up to 128 accumulators + addresses; 128*40 + 256*232 <= 64K

template <int BN>
struct Layout {
  static constexpr int stages = BN == 256 ? 4 : 5;  // as many as fit in 227 KB
  static constexpr int a_bytes = kBlockM * kRowBytes;
  static constexpr int b_bytes = BN * kRowBytes;
  static constexpr int stage_bytes = a_bytes + b_bytes;
  static constexpr int b_part_rows = BN / kCluster;  // the rows of B each CTA of the pair loads
  // Stages, then 2 mbarriers per stage, plus slack to align the base to 1024 bytes.
  static constexpr int smem_bytes = stages * stage_bytes + 2 * stages * 8 + 1024;
  static_assert(a_bytes % 1024 == 0 && stage_bytes % 1024 == 0 && (b_part_rows * kRowBytes) % 1024 == 0,
                "every operand tile starts a 128-byte-swizzle atom");
  static_assert(smem_bytes <= 227 * 1024, "fits the opt-in shared memory of one SM");
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

template <typename T>
__device__ __forceinline__ void store_pair(T* C, int N, int row, int col, float x, float y, bool pair_ok) {
  T* p = C + static_cast<std::size_t>(row) * N + col;
  if (pair_ok && col + 1 < N) {
    if constexpr (std::is_same_v<T, __half>) *reinterpret_cast<__half2*>(p) = __floats2half2_rn(x, y);
    else *reinterpret_cast<__nv_bfloat162*>(p) = __floats2bfloat162_rn(x, y);
  } else {
    p[0] = static_cast<T>(x);
    if (col + 1 < N) p[1] = static_cast<T>(y);
  }
}

template <typename T, int BN>
__global__ void __launch_bounds__(kThreads, 1)
    gemm_wgmma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, T* C, int M,
               int N, int K) {
#if defined(__CUDA_ARCH__)
  using L = Layout<BN>;
  extern __shared__ uint8_t smem_raw[];
  const uint32_t base = (tma::smem_address(smem_raw) + 1023u) & ~1023u;
  const uint32_t full = base + L::stages * L::stage_bytes;
  const uint32_t empty = full + L::stages * 8;
  const int warpgroup = threadIdx.x / 128;

  if (threadIdx.x == 0) {
    for (int s = 0; s < L::stages; ++s) {
      tma::barrier_init(full + 8 * s, 1);
      tma::barrier_init(empty + 8 * s, kConsumers * kCluster);
    }
    tma::fence_barrier_init();
  }
  tma::cluster_sync();  // the peer's copies and arrivals target these barriers

  const int rank = static_cast<int>(tma::cluster_rank());
  const int tiles_m = (M + kBlockM - 1) / kBlockM;
  const int units_m = (tiles_m + kCluster - 1) / kCluster;
  const int tiles_n = (N + BN - 1) / BN;
  const int units = units_m * tiles_n;
  const int k_steps = (K + kBlockK - 1) / kBlockK;
  const int first_unit = static_cast<int>(tma::cluster_index());
  const int unit_step = static_cast<int>(tma::cluster_count());

  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kProducerRegs));
    if (threadIdx.x == 0) {
      tma::prefetch_map(&map_a);
      tma::prefetch_map(&map_b);
      int stage = 0;
      uint32_t phase = 0;
      for (int unit = first_unit; unit < units; unit += unit_step) {
        int um, tn;
        unit_coords(unit, units_m, tiles_n, um, tn);
        // With an odd tile count the last pair's second tile lies past M: it loads a valid A
        // tile (the pair still shares B) and stores nothing.
        const int tm = min(um * kCluster + rank, tiles_m - 1);
        for (int k = 0; k < k_steps; ++k) {
          tma::barrier_wait(empty + 8 * stage, phase ^ 1);
          const uint32_t bar = full + 8 * stage;
          const uint32_t a = base + stage * L::stage_bytes;
          tma::barrier_arrive_expect_bytes(bar, L::stage_bytes);
          tma::load_2d(a, &map_a, bar, k * kBlockK, tm * kBlockM);
          tma::load_2d_multicast(a + L::a_bytes + rank * L::b_part_rows * kRowBytes, &map_b, bar, k * kBlockK,
                                 tn * BN + rank * L::b_part_rows, static_cast<uint16_t>((1u << kCluster) - 1));
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
    const bool leader = t == 0;
    float acc[BN / 2];
    int stage = 0;
    uint32_t phase = 0;
    for (int unit = first_unit; unit < units; unit += unit_step) {
      int um, tn;
      unit_coords(unit, units_m, tiles_n, um, tn);
      const int tm = um * kCluster + rank;
      int previous = 0;
      for (int k = 0; k < k_steps; ++k) {
        tma::barrier_wait(full + 8 * stage, phase);
        const uint32_t a = base + stage * L::stage_bytes;
        const uint64_t desc_a = wgmma::smem_descriptor(a + half * 64 * kRowBytes);
        const uint64_t desc_b = wgmma::smem_descriptor(a + L::a_bytes);
        wgmma::fence_registers(acc);
        wgmma::fence();
#pragma unroll
        for (int kk = 0; kk < kBlockK / 16; ++kk) {
          // 16 halves = 32 bytes further along the swizzled row (the address field counts 16 bytes).
          wgmma::mma_ss<T, BN>(acc, desc_a + 2 * kk, desc_b + 2 * kk, (k > 0 || kk > 0) ? 1 : 0);
        }
        wgmma::commit_group();
        wgmma::wait_group<1>();
        wgmma::fence_registers(acc);
        if (k > 0 && leader) {
          for (int cta = 0; cta < kCluster; ++cta) tma::barrier_arrive_in(empty + 8 * previous, cta);
        }
        previous = stage;
        if (++stage == L::stages) {
          stage = 0;
          phase ^= 1;
        }
      }
      wgmma::wait_group<0>();
      wgmma::fence_registers(acc);
      if (leader) {
        for (int cta = 0; cta < kCluster; ++cta) tma::barrier_arrive_in(empty + 8 * previous, cta);
      }

      // m64nNk16 accumulator layout: acc[4j + 2h + e] is row 16*warp + lane/4 + 8h,
      // column 8j + 2*(lane%4) + e of this warpgroup's 64 x BN block.
      const int warp = t / 32;
      const int lane = t % 32;
      const int row0 = tm * kBlockM + half * 64 + warp * 16 + lane / 4;
      const int col0 = tn * BN + 2 * (lane % 4);
      const bool pair_ok = N % 2 == 0;  // two outputs as one aligned 4-byte store
#pragma unroll
      for (int j = 0; j < BN / 8; ++j) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int row = row0 + 8 * h;
          const int col = col0 + 8 * j;
          if (row < M && col < N) store_pair(C, N, row, col, acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1], pair_ok);
        }
      }
    }
  }
  tma::cluster_sync();  // the peer arrives on this CTA's barriers until its last stage
#endif
}

// A row-major [rows, K] operand read in boxes of box_rows x 64, 128-byte swizzled.
template <typename T>
CUtensorMap operand_map(const T* ptr, int rows, int K, int box_rows) {
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(K), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_stride[1] = {static_cast<cuuint64_t>(K) * sizeof(T)};
  const cuuint32_t box[2] = {kBlockK, static_cast<cuuint32_t>(box_rows)};
  return swizzled_tensor_map(tensor_map_data_type<T>(), ptr, 2, dims, row_stride, box, "gemm_wgmma");
}

template <typename T, int BN>
const void* kernel_address() {
  return reinterpret_cast<const void*>(&gemm_wgmma<T, BN>);
}

// Per device, once per kernel: the shared-memory opt-in, and how many clusters fit at once.
template <typename T, int BN>
int resident_clusters(int device, cudaLaunchConfig_t config) {
  static std::mutex mutex;
  static std::map<int, int> known;
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto it = known.find(device); it != known.end()) return it->second;
  ARCHBENCH_CUDA_CHECK(
      cudaFuncSetAttribute(kernel_address<T, BN>(), cudaFuncAttributeMaxDynamicSharedMemorySize, Layout<BN>::smem_bytes));
  int clusters = 0;
  ARCHBENCH_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel_address<T, BN>(), &config));
  if (clusters < 1) throw std::runtime_error("gemm_wgmma: no cluster of this kernel fits on the device");
  known[device] = clusters;
  return clusters;
}

template <typename T, int BN>
void launch_width(const T* A, const T* B, T* C, int M, int N, int K, int device, cudaStream_t stream) {
  const CUtensorMap map_a = operand_map(A, M, K, kBlockM);
  const CUtensorMap map_b = operand_map(B, N, K, Layout<BN>::b_part_rows);
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = kCluster;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = Layout<BN>::smem_bytes;
  config.stream = stream;
  config.attrs = &cluster;
  config.numAttrs = 1;
  config.gridDim = dim3(kCluster);
  const int clusters = resident_clusters<T, BN>(device, config);
  const long long units =
      static_cast<long long>((M + kBlockM * kCluster - 1) / (kBlockM * kCluster)) * ((N + BN - 1) / BN);
  config.gridDim = dim3(static_cast<unsigned>(kCluster * (units < clusters ? units : clusters)));
  ARCHBENCH_CUDA_CHECK(cudaLaunchKernelEx(&config, gemm_wgmma<T, BN>, map_a, map_b, C, M, N, K));
}

template <typename T>
void launch(const char* fn, const T* A, const T* B, T* C, int M, int N, int K, cudaStream_t stream) {
  validate_gemm_launch(fn, GemmTiling{kBlockM, kWgmmaTileWidths.back(), 8}, A, B, C, M, N, K);
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  int sms = 0;
  ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  // The width is chosen against a full device of clusters; the launch then uses what really fits.
  switch (wgmma_tile_width(M, N, sms / kCluster)) {
    case 256: launch_width<T, 256>(A, B, C, M, N, K, device, stream); break;
    case 224: launch_width<T, 224>(A, B, C, M, N, K, device, stream); break;
    default: launch_width<T, 192>(A, B, C, M, N, K, device, stream); break;
  }
}

template <typename T>
const void* kernel_for(int tile_n) {
  switch (tile_n) {
    case 256: return kernel_address<T, 256>();
    case 224: return kernel_address<T, 224>();
    case 192: return kernel_address<T, 192>();
    default: throw std::invalid_argument("gemm_wgmma: no kernel of tile width " + std::to_string(tile_n));
  }
}

}  // namespace

void launch_gemm_wgmma_f16(const __half* A, const __half* B, __half* C, int M, int N, int K, cudaStream_t stream) {
  launch("launch_gemm_wgmma_f16", A, B, C, M, N, K, stream);
}

void launch_gemm_wgmma_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
                            cudaStream_t stream) {
  launch("launch_gemm_wgmma_bf16", A, B, C, M, N, K, stream);
}

const void* gemm_wgmma_f16_kernel(int tile_n) { return kernel_for<__half>(tile_n); }
const void* gemm_wgmma_bf16_kernel(int tile_n) { return kernel_for<__nv_bfloat16>(tile_n); }

}  // namespace archbench::kernels::matmul
