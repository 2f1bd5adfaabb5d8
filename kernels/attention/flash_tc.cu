// FlashAttention-2-style forward on the tensor cores: O = softmax(Q Kᵀ / sqrt(d)) V for f16 and
// bf16 (see attention_kernels.hpp for layout and requirements).
//
// Structure (one kernel template, instantiated per storage type and exact head dim):
//   * A block owns kBlockM = 16·kWarps query rows of one (batch, head) and walks the keys in
//     tiles of kBlockN. Warp w owns query rows 16w..16w+15 and keeps their Q fragments in
//     registers for the whole kernel (loaded once with ldmatrix).
//   * Per key tile: S = Q Kᵀ (16 x kBlockN per warp, fp32 accumulators, mma.sync m16n8k16),
//     keys >= Nk masked to -inf, online softmax in fp32 in the log2 domain (running max m and
//     partial sum l per row, the output rescaled by 2^(m_old - m_new)), then O += P V with P
//     taken straight from the S accumulators (an m16n8 C fragment pair is exactly an m16k16 A
//     fragment) and rounded to the storage type, V fragments from ldmatrix.trans.
//   * Global -> shared copies are cp.async with zero fill. K and V each have two stages: the
//     copy of key tile j+1 is issued as soon as tile j has landed, so it overlaps all of tile
//     j's math (double buffering); one commit group per tile and operand keeps the count exact.
//   * Head dims that are not a multiple of 16 (40) are zero-padded in shared memory to the next
//     multiple of 16 (48): the padding columns are zero-filled by cp.async, add 0 to Q·K, give 0
//     output columns that are never stored. Padded sizes: 40->48, 64, 80, 128, 160.
//   * Shared rows are padded by 16 bytes (stride kPadded + 8 halves, an odd number of 16-byte
//     units), so the 8 rows an ldmatrix reads fall on 8 distinct 16-byte bank groups.
//   * The epilogue divides by the quad-reduced row sum, writes the warp's 16 output rows into its
//     own (no longer needed) rows of the Q tile in shared memory, and copies them out in 16-byte
//     vectors.
//   * Built for targets older than sm_80 the kernel only fills its O rows with quiet NaN, so
//     running such code fails any correctness check visibly.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "harness/util/cuda_check.hpp"
#include "kernels/attention/attention_kernels.hpp"
#include "kernels/attention/head_dim_dispatch.hpp"
#include "kernels/attention/tensor_core_primitives.cuh"
#include "kernels/common/convert.cuh"
#include "kernels/common/shared_memory_opt_in.hpp"

namespace archbench::kernels::attention {
// Tile geometry lives in a named namespace: internal-linkage members that one target's device pass
// does not use (the pre-sm_80 stub) would draw nvcc's "declared but never referenced" warning.
namespace flash_detail {

// Per head dim: warps per block (16 query rows each), key tile, and the minimum resident blocks
// per SM promised to the compiler (2 caps registers at 128 per thread for 256 threads). Chosen
// from ptxas's report (nvcc 13.0, sm_80 and sm_90), untuned on a GPU yet:
//   d 40 / 64: 123-128 registers, no spill at 2 blocks (16 warps) per SM;
//   d 80: kBlockN 64 spilled at 128 registers, kBlockN 32 does not (124);
//   d 128: about 200 registers (2 blocks per SM would spill ~360 bytes), so 1 block of 8 warps;
//          102 KiB of shared memory: more than CC 8.6 / 8.9 allow per block (99 KiB), where the
//          launch says so (opt_in_dynamic_shared_memory) instead of running;
//   d 160: about 240 registers, 4 warps per block (its shape is small: N = 256).
// These (and 8 vs 4 warps for d 128) are the first knobs to tune on the H200.
struct FlashConfig {
  int warps;
  int block_n;
  int min_blocks;
};
constexpr FlashConfig flash_config(int head_dim) {
  switch (head_dim) {
    case 40: return {8, 64, 2};
    case 64: return {8, 64, 2};
    case 80: return {8, 32, 2};
    case 128: return {8, 64, 1};
    case 160: return {4, 32, 1};
    default: return {0, 0, 0};  // no kernel for this head dim (FlashTile refuses it)
  }
}

template <int kHeadDim>
struct FlashTile {
  static constexpr int kD = kHeadDim;
  static constexpr int kPadded = (kHeadDim + 15) / 16 * 16;
  static_assert(flash_config(kHeadDim).warps > 0, "a head dim with a FlashConfig");
  static constexpr int kWarps = flash_config(kHeadDim).warps;
  static constexpr int kThreads = kWarps * 32;
  static constexpr int kMinBlocks = flash_config(kHeadDim).min_blocks;
  static constexpr int kBlockM = kWarps * 16;
  static constexpr int kBlockN = flash_config(kHeadDim).block_n;
  static constexpr int kStride = kPadded + 8;        // shared row stride in elements
  static constexpr int kRowBytes = kStride * 2;
  static constexpr int kChunks = kPadded / 8;        // 16-byte chunks per padded row
  static constexpr int kDataChunks = kHeadDim / 8;   // chunks holding real columns
  static constexpr int kQKSteps = kPadded / 16;      // k steps of S = Q Kᵀ
  static constexpr int kSTiles = kBlockN / 8;        // n8 tiles of S per warp
  static constexpr int kOTiles = kPadded / 8;        // n8 tiles of O per warp
  static constexpr int kPVSteps = kBlockN / 16;      // k steps of O += P V
  // Byte offsets in shared memory: Q tile, K stages 0 and 1, V stages 0 and 1.
  static constexpr std::uint32_t kQOffset = 0;
  static constexpr std::uint32_t kKOffset = kBlockM * kRowBytes;
  static constexpr std::uint32_t kVOffset = kKOffset + 2 * kBlockN * kRowBytes;
  static constexpr std::uint32_t kStageBytes = kBlockN * kRowBytes;
  static constexpr int kSmemBytes = (kBlockM + 4 * kBlockN) * kRowBytes;

  static_assert(kHeadDim % 8 == 0, "rows move in 16-byte chunks");
  static_assert(kBlockN % 16 == 0 && kPadded % 16 == 0, "mma k and ldmatrix.x4 granularity");
  static_assert(kRowBytes % 16 == 0 && (kRowBytes / 16) % 2 == 1,
                "an odd number of 16-byte units per row keeps ldmatrix free of bank conflicts");
};

}  // namespace flash_detail

namespace {

using flash_detail::FlashTile;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 800
// What the pre-sm_80 stub writes.
template <typename T>
__device__ __forceinline__ T quiet_nan();
template <>
__device__ __forceinline__ __half quiet_nan<__half>() { return __ushort_as_half(0x7E00); }
template <>
__device__ __forceinline__ __nv_bfloat16 quiet_nan<__nv_bfloat16>() { return __ushort_as_bfloat16(0x7FC0); }
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

// Enqueues the cp.async copies of rows [row0, row0 + kRows) of one head's [n_rows, d] matrix into
// a shared tile; rows >= n_rows and padding columns are zero-filled.
template <typename Tile, int kRows, typename T>
__device__ __forceinline__ void load_rows(std::uint32_t tile, const T* head, int row0, int n_rows, int tid) {
  constexpr int kTotal = kRows * Tile::kChunks;
  constexpr int kPasses = (kTotal + Tile::kThreads - 1) / Tile::kThreads;
#pragma unroll
  for (int pass = 0; pass < kPasses; ++pass) {
    const int idx = tid + pass * Tile::kThreads;
    if (kTotal % Tile::kThreads == 0 || idx < kTotal) {
      const int r = idx / Tile::kChunks;
      const int c = idx % Tile::kChunks;
      const int row = row0 + r;
      const bool ok = row < n_rows && c < Tile::kDataChunks;
      const T* src = ok ? head + static_cast<std::size_t>(row) * Tile::kD + c * 8 : head;
      cp_async_16(tile + r * Tile::kRowBytes + c * 16, src, ok);
    }
  }
}

#endif  // __CUDA_ARCH__ >= 800

template <typename T, int kHeadDim>
__global__ void __launch_bounds__(FlashTile<kHeadDim>::kThreads, FlashTile<kHeadDim>::kMinBlocks)
    flash_attention_tc(const T* __restrict__ Q, const T* __restrict__ K, const T* __restrict__ V, T* __restrict__ O,
                       int Nq, int Nk, float scale_log2) {
  using Tile = FlashTile<kHeadDim>;
  const int tid = static_cast<int>(threadIdx.x);
  const int q0 = static_cast<int>(blockIdx.x) * Tile::kBlockM;
  const std::size_t head = blockIdx.y;
  T* o_head = O + head * static_cast<std::size_t>(Nq) * Tile::kD;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ __align__(16) unsigned char smem[];
  const std::uint32_t base = smem_address(smem);
  const T* q_head = Q + head * static_cast<std::size_t>(Nq) * Tile::kD;
  const T* k_head = K + head * static_cast<std::size_t>(Nk) * Tile::kD;
  const T* v_head = V + head * static_cast<std::size_t>(Nk) * Tile::kD;
  const int lane = tid % 32;
  const int warp = tid / 32;

  // Commit groups, in order: {Q, K0}, {V0}, then per tile j: {K(j+1)}, {V(j+1)} (empty past the
  // last tile). At the top of tile j the group of K(j) is the second newest, at the V wait the
  // group of V(j) is: wait_group 1 at both points means "my copies of that operand landed".
  load_rows<Tile, Tile::kBlockM>(base + Tile::kQOffset, q_head, q0, Nq, tid);
  load_rows<Tile, Tile::kBlockN>(base + Tile::kKOffset, k_head, 0, Nk, tid);
  cp_async_commit();
  load_rows<Tile, Tile::kBlockN>(base + Tile::kVOffset, v_head, 0, Nk, tid);
  cp_async_commit();

  // Fragment addresses (bytes, relative to a tile). Q (A operand, 16x16 per k step): lane l reads
  // row l%16 at column (l/16)*8, giving registers a0..a3 in mma order. K (B operand from K[n][k],
  // no transposition): one x4 covers two n8 tiles: lane l reads key (l&7) + (l>>4)*8 at column
  // ((l>>3)&1)*8. V (B operand from V[k][n], transposed): one x4.trans covers two n8 tiles of d:
  // lane l reads key (l&7) + ((l>>3)&1)*8 at column (l>>4)*8.
  const std::uint32_t q_frag = base + Tile::kQOffset + (warp * 16 + lane % 16) * Tile::kRowBytes + (lane / 16) * 16;
  const std::uint32_t k_frag = ((lane & 7) + (lane >> 4) * 8) * Tile::kRowBytes + ((lane >> 3) & 1) * 16;
  const std::uint32_t v_frag = ((lane & 7) + ((lane >> 3) & 1) * 8) * Tile::kRowBytes + (lane >> 4) * 16;

  std::uint32_t qf[Tile::kQKSteps][4];  // this warp's 16 query rows, whole padded head dim
  float o[Tile::kOTiles][4];
#pragma unroll
  for (int i = 0; i < Tile::kOTiles; ++i) {
    o[i][0] = o[i][1] = o[i][2] = o[i][3] = 0.f;
  }
  // This thread's two rows: lane/4 and lane/4 + 8 of the warp's 16. m is the running maximum of
  // the raw logits, l this thread's share of the row sum (reduced over the quad at the end: all
  // four lanes of a quad rescale by the same factor, so partial sums stay consistent).
  float m[2] = {-INFINITY, -INFINITY};
  float l[2] = {0.f, 0.f};

  // Q (with K0) landed for everyone: load this warp's Q fragments once.
  cp_async_wait<1>();
  __syncthreads();
#pragma unroll
  for (int ks = 0; ks < Tile::kQKSteps; ++ks) ldmatrix_x4(q_frag + ks * 32, qf[ks]);

  const int n_tiles = (Nk + Tile::kBlockN - 1) / Tile::kBlockN;
  for (int j = 0; j < n_tiles; ++j) {
    const std::uint32_t stage = static_cast<std::uint32_t>(j & 1) * Tile::kStageBytes;
    const std::uint32_t next_stage = static_cast<std::uint32_t>((j + 1) & 1) * Tile::kStageBytes;
    // K(j) landed for everyone (at j = 0 this repeats the wait above: no group was committed in
    // between). The barrier also proves every warp finished tile j-1, whose K and V stage the
    // copies below refill.
    cp_async_wait<1>();
    __syncthreads();
    if (j + 1 < n_tiles) {
      load_rows<Tile, Tile::kBlockN>(base + Tile::kKOffset + next_stage, k_head, (j + 1) * Tile::kBlockN, Nk, tid);
    }
    cp_async_commit();

    // ---- S = Q K(j)ᵀ: 16 x kBlockN per warp.
    float s[Tile::kSTiles][4];
#pragma unroll
    for (int i = 0; i < Tile::kSTiles; ++i) {
      s[i][0] = s[i][1] = s[i][2] = s[i][3] = 0.f;
    }
    const std::uint32_t k_tile = base + Tile::kKOffset + stage + k_frag;
#pragma unroll
    for (int ks = 0; ks < Tile::kQKSteps; ++ks) {
#pragma unroll
      for (int np = 0; np < Tile::kSTiles / 2; ++np) {
        std::uint32_t b[4];
        ldmatrix_x4(k_tile + np * 16 * Tile::kRowBytes + ks * 32, b);
        mma_16816<T>(s[2 * np], qf[ks], b[0], b[1]);
        mma_16816<T>(s[2 * np + 1], qf[ks], b[2], b[3]);
      }
    }

    // ---- Keys past Nk (zero-filled, so their logits are 0) must not count: -inf before softmax.
    const int kv0 = j * Tile::kBlockN;
    if (kv0 + Tile::kBlockN > Nk) {
#pragma unroll
      for (int nt = 0; nt < Tile::kSTiles; ++nt) {
        const int col = kv0 + nt * 8 + (lane & 3) * 2;
        if (col >= Nk) s[nt][0] = s[nt][2] = -INFINITY;
        if (col + 1 >= Nk) s[nt][1] = s[nt][3] = -INFINITY;
      }
    }

    // ---- Online softmax (fp32, log2 domain). Every key tile holds at least one key < Nk, so
    // the new maximum is finite; the guard only keeps -inf - -inf from ever forming a NaN.
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float mx = m[r];
#pragma unroll
      for (int nt = 0; nt < Tile::kSTiles; ++nt) mx = fmaxf(mx, fmaxf(s[nt][2 * r], s[nt][2 * r + 1]));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      const float m_scaled = mx == -INFINITY ? 0.f : mx * scale_log2;
      const float alpha = exp2_approx(m[r] * scale_log2 - m_scaled);  // 0 on the first tile
      m[r] = mx;
      float sum = 0.f;
#pragma unroll
      for (int nt = 0; nt < Tile::kSTiles; ++nt) {
        s[nt][2 * r] = exp2_approx(fmaf(s[nt][2 * r], scale_log2, -m_scaled));
        s[nt][2 * r + 1] = exp2_approx(fmaf(s[nt][2 * r + 1], scale_log2, -m_scaled));
        sum += s[nt][2 * r] + s[nt][2 * r + 1];
      }
      l[r] = l[r] * alpha + sum;
#pragma unroll
      for (int dt = 0; dt < Tile::kOTiles; ++dt) {
        o[dt][2 * r] *= alpha;
        o[dt][2 * r + 1] *= alpha;
      }
    }

    // V(j) landed for everyone; the barrier also proves every warp is past tile j-1's P V, so
    // the other V stage can be refilled.
    cp_async_wait<1>();
    __syncthreads();
    if (j + 1 < n_tiles) {
      load_rows<Tile, Tile::kBlockN>(base + Tile::kVOffset + next_stage, v_head, (j + 1) * Tile::kBlockN, Nk, tid);
    }
    cp_async_commit();

    // ---- O += P V(j). The S accumulators of n8 tiles 2kk and 2kk+1 are the A fragment of k step
    // kk: a0 = (row g, keys 2t..2t+1), a1 = (row g+8, same keys), a2/a3 = the same 8 keys later.
    const std::uint32_t v_tile = base + Tile::kVOffset + stage + v_frag;
#pragma unroll
    for (int kk = 0; kk < Tile::kPVSteps; ++kk) {
      const std::uint32_t a[4] = {pack_pair<T>(s[2 * kk][0], s[2 * kk][1]), pack_pair<T>(s[2 * kk][2], s[2 * kk][3]),
                                  pack_pair<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                                  pack_pair<T>(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
      for (int dp = 0; dp < Tile::kOTiles / 2; ++dp) {
        std::uint32_t b[4];
        ldmatrix_x4_trans(v_tile + kk * 16 * Tile::kRowBytes + dp * 32, b);
        mma_16816<T>(o[2 * dp], a, b[0], b[1]);
        mma_16816<T>(o[2 * dp + 1], a, b[2], b[3]);
      }
    }
  }
  // Groups still pending here are empty (past the last tile): nothing writes shared memory now.

  // ---- Epilogue: O / l, staged through this warp's own rows of the Q tile (only this warp ever
  // read them, into registers at j = 0), then 16-byte stores of the real d columns.
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 1);
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
    l[r] = 1.f / l[r];  // > 0: the row maximum contributes 2^0 = 1
  }
  unsigned char* warp_rows = smem + Tile::kQOffset + warp * 16 * Tile::kRowBytes;
#pragma unroll
  for (int dt = 0; dt < Tile::kOTiles; ++dt) {
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      const int row = lane / 4 + r * 8;
      const int col = dt * 8 + (lane & 3) * 2;
      *reinterpret_cast<std::uint32_t*>(warp_rows + row * Tile::kRowBytes + col * 2) =
          pack_pair<T>(o[dt][2 * r] * l[r], o[dt][2 * r + 1] * l[r]);
    }
  }
  __syncwarp();
  constexpr int kWarpChunks = 16 * Tile::kDataChunks;
#pragma unroll
  for (int pass = 0; pass < (kWarpChunks + 31) / 32; ++pass) {
    const int idx = lane + pass * 32;
    if (kWarpChunks % 32 != 0 && idx >= kWarpChunks) break;
    const int r = idx / Tile::kDataChunks;
    const int c = idx % Tile::kDataChunks;
    const int row = q0 + warp * 16 + r;
    if (row < Nq) {
      *reinterpret_cast<uint4*>(o_head + static_cast<std::size_t>(row) * Tile::kD + c * 8) =
          *reinterpret_cast<const uint4*>(warp_rows + r * Tile::kRowBytes + c * 16);
    }
  }
#else
  // Pre-sm_80 device code (and the host pass): no cp.async / bf16 mma. Poison this block's rows.
  (void)Q;
  (void)K;
  (void)V;
  (void)Nk;
  (void)scale_log2;
  const T nan = quiet_nan<T>();
  for (int i = tid; i < Tile::kBlockM * Tile::kD; i += Tile::kThreads) {
    const int row = q0 + i / Tile::kD;
    if (row < Nq) o_head[static_cast<std::size_t>(row) * Tile::kD + i % Tile::kD] = nan;
  }
#endif
}

template <typename T, int kHeadDim>
void launch_for(const void* q, const void* k, const void* v, void* o, const AttentionDims& d, cudaStream_t stream) {
  using Tile = FlashTile<kHeadDim>;
  const void* kernel = reinterpret_cast<const void*>(&flash_attention_tc<T, kHeadDim>);
  opt_in_dynamic_shared_memory(kernel, Tile::kSmemBytes, "attention kernel");
  const dim3 grid(static_cast<unsigned>((d.Nq + Tile::kBlockM - 1) / Tile::kBlockM), static_cast<unsigned>(d.heads()));
  const float scale_log2 = static_cast<float>(kLog2e / std::sqrt(static_cast<double>(kHeadDim)));
  flash_attention_tc<T, kHeadDim><<<grid, Tile::kThreads, Tile::kSmemBytes, stream>>>(
      static_cast<const T*>(q), static_cast<const T*>(k), static_cast<const T*>(v), static_cast<T*>(o), d.Nq, d.Nk,
      scale_log2);
  ARCHBENCH_CHECK_LAUNCH();
}

}  // namespace

void launch_flash_attention(DType dtype, const void* q, const void* k, const void* v, void* o,
                            const AttentionDims& dims, cudaStream_t stream) {
  validate_attention_args("launch_flash_attention", q, k, v, o, dims);
  dispatch_half_storage(dtype, "flash attention on the tensor cores", [&](auto tag) {
    using T = decltype(tag);
    dispatch_head_dim("flash attention", dims.D,
                      [&](auto d) { launch_for<T, decltype(d)::value>(q, k, v, o, dims, stream); });
  });
}

const void* flash_attention_kernel(DType dtype, int head_dim) {
  const void* kernel = nullptr;
  dispatch_half_storage(dtype, "flash attention on the tensor cores", [&](auto tag) {
    using T = decltype(tag);
    dispatch_head_dim("flash attention", head_dim, [&](auto d) {
      kernel = reinterpret_cast<const void*>(&flash_attention_tc<T, decltype(d)::value>);
    });
  });
  return kernel;
}

}  // namespace archbench::kernels::attention
