// fp32 attention on the SIMT cores (no tensor cores, any compute capability): the same online-
// softmax algorithm as the tensor-core kernel, O = softmax(Q Kᵀ / sqrt(d)) V, BHND layout (see
// attention_kernels.hpp).
//
// Structure (one kernel template per exact head dim):
//   * A block of 8 warps owns 32 query rows of one (batch, head), 4 rows per warp, and walks
//     the keys in tiles of 32 held in shared memory (keys >= Nk zero-filled).
//   * Scores: lane j computes the 4 logits of key j against the warp's 4 query rows; the query
//     rows are read as broadcast float4 vectors, the key row from a stride-(d+1) tile (so the 32
//     lanes hit 32 different banks). Keys >= Nk get -inf.
//   * Online softmax per row with warp shuffles (fp32, exp2 domain), then O += P V with P
//     broadcast by shuffles and lane c owning output columns c, c+32, ...
// It is a correctness-first fp32 path (a fraction of the fp32 peak), not a tuned kernel.
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "harness/util/cuda_check.hpp"
#include "kernels/attention/attention_kernels.hpp"
#include "kernels/attention/head_dim_dispatch.hpp"
#include "kernels/common/shared_memory_opt_in.hpp"

namespace archbench::kernels::attention {
namespace {

template <int kHeadDim>
struct SimtTile {
  static constexpr int kD = kHeadDim;
  static constexpr int kWarps = 8;
  static constexpr int kThreads = kWarps * 32;
  static constexpr int kRowsPerWarp = 4;
  static constexpr int kBlockM = kWarps * kRowsPerWarp;
  static constexpr int kBlockN = 32;  // one key per lane
  static constexpr int kCols = (kHeadDim + 31) / 32;  // output columns per lane
  static constexpr int kKStride = kHeadDim + 1;       // conflict-free column walk over 32 key rows
  // Floats: Q tile (first, so its float4 reads are 16-byte aligned), K tile, V tile.
  static constexpr int kQFloats = kBlockM * kD;
  static constexpr int kKFloats = kBlockN * kKStride;
  static constexpr int kVFloats = kBlockN * kD;
  static constexpr int kSmemBytes = (kQFloats + kKFloats + kVFloats) * 4;
  static_assert(kHeadDim % 4 == 0, "query rows are read as float4");
};

__device__ __forceinline__ float warp_max(float x) {
#pragma unroll
  for (int off = 16; off > 0; off /= 2) x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, off));
  return x;
}

__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int off = 16; off > 0; off /= 2) x += __shfl_xor_sync(0xffffffffu, x, off);
  return x;
}

template <int kHeadDim>
__global__ void __launch_bounds__(SimtTile<kHeadDim>::kThreads)
    flash_attention_simt_f32(const float* __restrict__ Q, const float* __restrict__ K, const float* __restrict__ V,
                             float* __restrict__ O, int Nq, int Nk, float scale_log2) {
  using Tile = SimtTile<kHeadDim>;
  constexpr int kD = Tile::kD;
  extern __shared__ __align__(16) float smem_f32[];
  float* sQ = smem_f32;
  float* sK = sQ + Tile::kQFloats;
  float* sV = sK + Tile::kKFloats;

  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int q0 = static_cast<int>(blockIdx.x) * Tile::kBlockM;
  const std::size_t head = blockIdx.y;
  const float* q_head = Q + head * static_cast<std::size_t>(Nq) * kD;
  const float* k_head = K + head * static_cast<std::size_t>(Nk) * kD;
  const float* v_head = V + head * static_cast<std::size_t>(Nk) * kD;
  float* o_head = O + head * static_cast<std::size_t>(Nq) * kD;

  for (int i = tid; i < Tile::kQFloats; i += Tile::kThreads) {
    const int row = q0 + i / kD;
    sQ[i] = row < Nq ? q_head[static_cast<std::size_t>(row) * kD + i % kD] : 0.f;
  }

  float m[Tile::kRowsPerWarp];  // running maximum of the scaled logits (log2 domain)
  float l[Tile::kRowsPerWarp];  // running row sum
  float o[Tile::kRowsPerWarp][Tile::kCols];
#pragma unroll
  for (int r = 0; r < Tile::kRowsPerWarp; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.f;
#pragma unroll
    for (int c = 0; c < Tile::kCols; ++c) o[r][c] = 0.f;
  }
  const float* q_rows = sQ + warp * Tile::kRowsPerWarp * kD;

  for (int kv0 = 0; kv0 < Nk; kv0 += Tile::kBlockN) {
    __syncthreads();  // the previous tile is no longer read (and, the first time, sQ is written)
    for (int i = tid; i < Tile::kBlockN * kD; i += Tile::kThreads) {
      const int r = i / kD;
      const int c = i % kD;
      const int key = kv0 + r;
      const bool ok = key < Nk;
      sK[r * Tile::kKStride + c] = ok ? k_head[static_cast<std::size_t>(key) * kD + c] : 0.f;
      sV[i] = ok ? v_head[static_cast<std::size_t>(key) * kD + c] : 0.f;
    }
    __syncthreads();

    float s[Tile::kRowsPerWarp] = {};
    const float* k_row = sK + lane * Tile::kKStride;
#pragma unroll 2
    for (int c = 0; c < kD; c += 4) {
      const float k0 = k_row[c], k1 = k_row[c + 1], k2 = k_row[c + 2], k3 = k_row[c + 3];
#pragma unroll
      for (int r = 0; r < Tile::kRowsPerWarp; ++r) {
        const float4 q = *reinterpret_cast<const float4*>(q_rows + r * kD + c);
        s[r] = fmaf(q.x, k0, fmaf(q.y, k1, fmaf(q.z, k2, fmaf(q.w, k3, s[r]))));
      }
    }
    // kv0 < Nk, so lane 0's key is valid and every row maximum below is finite.
    const bool key_ok = kv0 + lane < Nk;
#pragma unroll
    for (int r = 0; r < Tile::kRowsPerWarp; ++r) {
      const float x = key_ok ? s[r] * scale_log2 : -INFINITY;
      const float m_new = fmaxf(m[r], warp_max(x));
      const float alpha = exp2f(m[r] - m_new);  // 0 on the first tile (m = -inf)
      const float p = exp2f(x - m_new);         // 0 for masked keys
      l[r] = l[r] * alpha + warp_sum(p);
      m[r] = m_new;
      s[r] = p;
#pragma unroll
      for (int c = 0; c < Tile::kCols; ++c) o[r][c] *= alpha;
    }

#pragma unroll 4
    for (int j = 0; j < Tile::kBlockN; ++j) {
      float v[Tile::kCols];
#pragma unroll
      for (int c = 0; c < Tile::kCols; ++c) {
        const int col = lane + 32 * c;
        v[c] = col < kD ? sV[j * kD + col] : 0.f;
      }
#pragma unroll
      for (int r = 0; r < Tile::kRowsPerWarp; ++r) {
        const float p = __shfl_sync(0xffffffffu, s[r], j);
#pragma unroll
        for (int c = 0; c < Tile::kCols; ++c) o[r][c] = fmaf(p, v[c], o[r][c]);
      }
    }
  }

#pragma unroll
  for (int r = 0; r < Tile::kRowsPerWarp; ++r) {
    const int row = q0 + warp * Tile::kRowsPerWarp + r;
    if (row >= Nq) continue;
    const float inv = 1.f / l[r];  // >= 1 before inversion: the row maximum contributes 2^0
#pragma unroll
    for (int c = 0; c < Tile::kCols; ++c) {
      const int col = lane + 32 * c;
      if (col < kD) o_head[static_cast<std::size_t>(row) * kD + col] = o[r][c] * inv;
    }
  }
}

}  // namespace

void launch_flash_attention_f32(const float* q, const float* k, const float* v, float* o, const AttentionDims& dims,
                                cudaStream_t stream) {
  validate_attention_args("launch_flash_attention_f32", q, k, v, o, dims);
  dispatch_head_dim("fp32 attention", dims.D, [&](auto d) {
    constexpr int kD = decltype(d)::value;
    using Tile = SimtTile<kD>;
    const void* kernel = reinterpret_cast<const void*>(&flash_attention_simt_f32<kD>);
    opt_in_dynamic_shared_memory(kernel, Tile::kSmemBytes, "attention kernel");
    const dim3 grid(static_cast<unsigned>((dims.Nq + Tile::kBlockM - 1) / Tile::kBlockM),
                    static_cast<unsigned>(dims.heads()));
    const float scale_log2 = static_cast<float>(kLog2e / std::sqrt(static_cast<double>(kD)));
    flash_attention_simt_f32<kD><<<grid, Tile::kThreads, Tile::kSmemBytes, stream>>>(q, k, v, o, dims.Nq, dims.Nk,
                                                                                     scale_log2);
    ARCHBENCH_CHECK_LAUNCH();
  });
}

const void* flash_attention_f32_kernel(int head_dim) {
  const void* kernel = nullptr;
  dispatch_head_dim("fp32 attention", head_dim, [&](auto d) {
    kernel = reinterpret_cast<const void*>(&flash_attention_simt_f32<decltype(d)::value>);
  });
  return kernel;
}

}  // namespace archbench::kernels::attention
