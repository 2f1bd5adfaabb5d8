// Flash-attention forward for Hopper: O = softmax(Q Kᵀ / sqrt(d)) V (see flash_wgmma.hpp) with wgmma,
// TMA and mbarriers. Compiled for sm_90a only (CMakeLists.txt).
//
// Structure (one CTA = 128 query rows of one (batch, head); grid (ceil(Nq / 128), B·H)):
//   * Three warpgroups. Warpgroup 0 is the producer: it gives registers back (setmaxnreg) and one
//     thread issues the tensor copies, Q once, then K(j) and V(j) into a ring of kStages stages.
//     Each stage has a `full` mbarrier per operand (completes when the bytes landed) and an
//     `empty` one (completes when all 8 consumer warps released it). Warpgroups 1 and 2 are
//     consumers (setmaxnreg up), 64 query rows each (wgmma's M).
//   * Per key tile: S = Q K(j)ᵀ with wgmma, both operands K-major in shared memory; online softmax
//     in fp32 on the S accumulators (log2 domain, as flash_tc); P rounded to T straight into wgmma
//     A-operand registers (an accumulator pair is an A fragment); O += P V(j) with V MN-major
//     (trans-b), so neither K nor V is ever transposed.
//   * Overlap: S(j) and O += P(j-1) V(j-1) are issued back to back; the consumer waits only for
//     S(j), runs its softmax while P·V is still on the tensor cores, then waits for that, rescales
//     O and packs P(j).
//   * Shared tiles are panels of 64 columns (128 bytes, the 128-byte swizzle span), each 1024-byte
//     aligned: a d-wide tile is ceil(d/64) panels. The tensor maps are 3-D {d, N, B·H}, so a box
//     never reads the next head; columns past d (d = 40, 80, 160) and rows past Nq / Nk read as
//     zero (the TMA's out-of-bounds fill). Keys past Nk are masked to -inf before the softmax.
//   * Epilogue: O / l written into the consumer's own rows of the Q tile (same swizzle, no bank
//     conflicts), then 16-byte stores of rows < Nq.
//   * FP8 (T = __nv_fp8_e4m3 or __nv_fp8_e5m2): the same structure, 32 bytes of k per wgmma as for
//     16-bit types (k32), so a panel is 128 columns and the Q·Kᵀ descriptors are the same byte
//     offsets. FP8 wgmma takes B only K-major, so V arrives transposed ([d, keys], written by
//     transpose_v_fp8 before the attention kernel) and P·V reads it as Q·Kᵀ reads K. P goes into
//     the A registers without a shuffle: an A register holds keys 16h + 4t .. 4t+3 of a 16-key
//     block h, the thread's S accumulators hold keys 16h + 2t, 2t+1, 8+2t, 9+2t, and
//     transpose_v_fp8 stores V's keys in that order (the sum over keys does not care which slot a
//     key takes, as long as P and V agree). P is stored as P·256 (the softmax's exponent + 8:
//     exact, and probabilities down to 2^-14 stay normal e4m3 numbers), which the row sum carries
//     too; the scales are per tensor, in device memory, and positive (the row maximum is taken
//     before they apply).
//     P is e4m3 under e5m2 Q, K, V too (wgmma mixes the formats: P·V is .e4m3.e5m2): P lies in
//     [0, 256], where e5m2's wider exponent buys nothing and its one bit less of mantissa would
//     double P's rounding error (2^-3 instead of 2^-4 of a probability).
//     With the products at twice the 16-bit rate, the softmax's exponentials (the SFU: 16 a clock
//     per SM) take about as long as the products of a tile; letting the two consumers take turns
//     issuing them (FlashAttention-3's ping-pong, arXiv 2407.08608 §3.1) was slower here
//     (docs/kernel-choices.md). A quarter of them are computed on the FMA pipe instead
//     (exp2_polynomial): 1.4-6 % faster; half or three quarters were not.
//
// Two places depend on how ptxas schedules (nvcc 13.0; tools/sass/wgmma_schedule.py checks both in
// the SASS, as ctest's sass.wgmma_schedule and .ci/run do):
//   * The softmax fence: ptxas hoists `wgmma.wait_group 0` above the whole softmax (nothing in it
//     depends on the wait), silently serializing softmax and P·V. A shared-memory store of a value
//     that depends on every exp of the tile, just before the wait, keeps the wait after it.
//   * The V wait sits before the wgmma fence: a wgmma in another basic block than its fence (the
//     wait loop is a branch) makes ptxas inject a second fence (C7519).
#include "kernels/attention/attention_kernels.hpp"
#include "kernels/attention/exp2_polynomial.hpp"
#include "kernels/attention/flash_wgmma.hpp"
#include "kernels/attention/head_dim_dispatch.hpp"
#include "kernels/attention/tensor_core_primitives.cuh"
#include "kernels/common/convert.cuh"
#include "kernels/common/shared_memory_opt_in.hpp"
#include "kernels/common/swizzle_atom.hpp"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma_pipeline.cuh"
#include "kernels/common/wgmma_instructions.cuh"
#include "harness/util/cuda_check.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "flash_wgmma.cu is compiled for sm_90a only (wgmma, setmaxnreg): see CMakeLists.txt"
#endif

namespace archbench::kernels::attention {
// A named namespace, as in flash_tc.cu: internal-linkage members the host pass does not use would
// draw nvcc's "declared but never referenced" warning.
namespace flash_wgmma_detail {

// Per head dim: keys per tile (the n of S = Q Kᵀ) and the K/V ring depth, chosen to fit 227 KB of
// shared memory and the consumers' 240 registers; d = 160 with 128 keys would need 240 KB. Untuned.
// FP8 tiles are half the bytes: 128 keys (one 128-byte swizzle span of transposed V), 4 stages (3
// at d = 160, whose rows take two panels).
struct WgmmaFlashConfig {
  int block_n;
  int stages;
};
constexpr WgmmaFlashConfig wgmma_flash_config(int head_dim, int element_bytes) {
  if (element_bytes == 1) {
    if (head_dim % 16 != 0) return {0, 0};
    return {128, head_dim <= 128 ? 4 : 3};
  }
  switch (head_dim) {
    case 40: return {128, 3};
    case 64: return {128, 3};
    case 80: return {128, 2};
    case 128: return {128, 2};
    case 160: return {64, 2};
    default: return {0, 0};  // no kernel for this head dim (WgmmaFlashTile refuses it)
  }
}

// A head dim and storage type the kernel is instantiated for: FP8 needs d % 16 == 0 (16-byte rows
// for the tensor copies; d = 40 has none).
template <typename T, int kHeadDim>
constexpr bool has_wgmma_flash_kernel() {
  return wgmma_flash_config(kHeadDim, sizeof(T)).block_n > 0;
}

template <typename T, int kHeadDim>
struct WgmmaFlashTile {
  static_assert(has_wgmma_flash_kernel<T, kHeadDim>(), "a head dim with a WgmmaFlashConfig");
  static constexpr bool kFp8 = sizeof(T) == 1;
  // The softmax's P as the A operand of P·V: T, but e4m3 for either FP8 format (above).
  using P = std::conditional_t<kFp8, __nv_fp8_e4m3, T>;
  static constexpr int kConsumers = 2;             // consumer warpgroups, 64 query rows each
  static constexpr int kBlockM = 64 * kConsumers;  // query rows per CTA
  static constexpr int kThreads = 128 * (1 + kConsumers);
  static constexpr int kBlockN = wgmma_flash_config(kHeadDim, sizeof(T)).block_n;
  static constexpr int kStages = wgmma_flash_config(kHeadDim, sizeof(T)).stages;
  static constexpr int kRowBytes = 128;                               // one swizzle span per panel row
  static constexpr int kPanelCols = kRowBytes / static_cast<int>(sizeof(T));  // 64 halves or 128 FP8
  static constexpr int kPanels = (kHeadDim + kPanelCols - 1) / kPanelCols;  // swizzle panels per row
  static constexpr int kStepK = 32 / static_cast<int>(sizeof(T));   // k of one wgmma: 32 bytes of a row
  static constexpr int kQKSteps = (kHeadDim + kStepK - 1) / kStepK;  // of S = Q Kᵀ (d = 40 reads zeros to 48)
  static constexpr int kPVSteps = kBlockN / kStepK;                   // of O += P V
  static constexpr int kSRegs = kBlockN / 2;             // fp32 S accumulators per thread
  static constexpr int kORegs = kHeadDim / 2;            // fp32 O accumulators per thread
  static constexpr int kQPanelBytes = kBlockM * kRowBytes;
  static constexpr int kQBytes = kPanels * kQPanelBytes;
  static constexpr int kKVPanelBytes = kBlockN * kRowBytes;
  static constexpr int kKBytes = kPanels * kKVPanelBytes;  // one K stage
  // One V stage: panels like K, or for FP8 the transposed tile, d rows of kBlockN keys (128 bytes).
  static constexpr int kVBytes = kFp8 ? kHeadDim * kRowBytes : kKBytes;
  // The softmax's P is P·2^kPExponent: FP8 keeps it in e4m3's normal range (above).
  static constexpr float kPExponent = kFp8 ? 8.0f : 0.0f;
  // FP8: of every four pairs of a row's exponentials, this many go to the FMA pipe (exp2_polynomial)
  // instead of the SFU, which at twice the 16-bit product rate takes as long as the products.
  static constexpr int kPolynomialExpPerFour = kFp8 ? 1 : 0;
  // Byte offsets from the 1024-aligned base: Q, K stages, V stages, the mbarriers, the scratch words.
  static constexpr int kQOffset = 0;
  static constexpr int kKOffset = kQBytes;
  static constexpr int kVOffset = kKOffset + kStages * kKBytes;
  static constexpr int kBarOffset = kVOffset + kStages * kVBytes;
  static constexpr int kBarriers = 1 + 4 * kStages;  // q_full, k_full[], k_empty[], v_full[], v_empty[]
  static constexpr int kScratchOffset = kBarOffset + kBarriers * 8;  // the softmax fence's stores

  // One word per consumer warp, stored by its lane 0: a word shared by all would be a (harmless,
  // never read) write-write race that racecheck rightly reports; one word per thread was slower
  // (docs/kernel-choices.md, "flash_wgmma: the softmax fence's scratch").
  static constexpr int kScratchBytes = kConsumers * 4 * 4;
  static constexpr int kSmemBytes = kScratchOffset + kScratchBytes + kSwizzleAtomBytes;  // + slack to align the base
  // setmaxnreg budgets: 128·24 + 256·240 = 64,512 <= 65,536 registers per SM.
  static constexpr int kProducerRegs = 24;
  static constexpr int kConsumerRegs = 240;

  static_assert(kHeadDim % 8 == 0, "wgmma n and 16-byte rows need d % 8 == 0");
  static_assert(kBlockN % kStepK == 0 && kBlockN <= 256, "wgmma n <= 256, whole P·V k steps");
  static_assert(!kFp8 || kBlockN * sizeof(T) == kRowBytes, "a transposed V row is one swizzle span");
  static_assert(kQPanelBytes % 1024 == 0 && kKVPanelBytes % 1024 == 0 && kVBytes % 1024 == 0,
                "panels and stages start swizzle atoms");
  static_assert(kSmemBytes <= 227 * 1024, "fits the opt-in shared memory of one SM");
  static_assert(kConsumers * 128 * kConsumerRegs + 128 * kProducerRegs <= 65536, "register file");
};

#if defined(__CUDA_ARCH__)

// Two floats in FP8 format F (round to nearest, saturated to the largest finite value: +-448 in
// e4m3, +-57344 in e5m2), the first in the low byte.
template <typename F>
__device__ __forceinline__ uint16_t pack_fp8x2(float lo, float hi) {
  static_assert(std::is_same_v<F, __nv_fp8_e4m3> || std::is_same_v<F, __nv_fp8_e5m2>, "an FP8 format");
  constexpr __nv_fp8_interpretation_t kFormat = std::is_same_v<F, __nv_fp8_e5m2> ? __NV_E5M2 : __NV_E4M3;
  return static_cast<uint16_t>(__nv_cvt_float2_to_fp8x2(make_float2(lo, hi), __NV_SATFINITE, kFormat));
}
template <typename F>
__device__ __forceinline__ uint32_t pack_fp8x4(float a, float b, float c, float d) {
  return static_cast<uint32_t>(pack_fp8x2<F>(a, b)) | (static_cast<uint32_t>(pack_fp8x2<F>(c, d)) << 16);
}

// One consumer warpgroup's state and math. Accumulator fragment of m64nNk16: thread (warp w of the
// warpgroup, lane 4g + t) holds d[4i + 2r + c] = D[16w + g + 8r][8i + 2t + c], so each thread owns
// rows g and g + 8 of its warp's 16, and each row lives in the 4 threads of a quad.
template <typename T, int kHeadDim>
struct Consumer {
  using Tile = WgmmaFlashTile<T, kHeadDim>;

  float o[Tile::kORegs];
  float s[Tile::kSRegs];
  uint32_t p[Tile::kPVSteps][4];
  float m[2];  // running maximum of the raw logits of rows g, g + 8
  float l[2];  // this thread's part of the running row sums (quad-reduced at the end)

  // S = Q K(stage)ᵀ for this warpgroup's 64 rows: issue only (the caller commits and waits).
  __device__ __forceinline__ void issue_qk(uint32_t q_rows, uint32_t k_stage) {
#pragma unroll
    for (int ks = 0; ks < Tile::kQKSteps; ++ks) {
      // k step ks = 32 bytes of every row = panel ks/4, 32·(ks%4) bytes into its rows (the
      // hardware applies the swizzle to the computed address).
      const uint32_t col = (ks % 4) * 32;
      const uint64_t a = wgmma::smem_descriptor(q_rows + (ks / 4) * Tile::kQPanelBytes + col);
      const uint64_t b = wgmma::smem_descriptor(k_stage + (ks / 4) * Tile::kKVPanelBytes + col);
      wgmma::mma_ss<T, T, Tile::kBlockN>(s, a, b, ks > 0 ? 1 : 0);
    }
  }

  // O += P V(stage): issue only.
  __device__ __forceinline__ void issue_pv(uint32_t v_stage) {
#pragma unroll
    for (int kk = 0; kk < Tile::kPVSteps; ++kk) {
      if constexpr (Tile::kFp8) {
        // Transposed V, K-major: k32 step kk = key slots 32kk..32kk+31 = 32·kk bytes into every row.
        wgmma::mma_rs<typename Tile::P, T, kHeadDim>(o, p[kk], wgmma::smem_descriptor(v_stage + kk * 32), 1);
      } else {
        // k16 step kk = keys 16kk..16kk+15 = two 8-row atoms from row 16kk of every panel.
        const uint64_t b = wgmma::smem_descriptor_mn_major(v_stage + kk * 16 * Tile::kRowBytes, Tile::kKVPanelBytes);
        wgmma::mma_rs<T, T, kHeadDim>(o, p[kk], b, 1);
      }
    }
  }

  // Keys kv0 + col >= Nk do not exist (their rows were zero-filled): -inf.
  __device__ __forceinline__ void mask_tail(int kv0, int Nk, int t) {
#pragma unroll
    for (int i = 0; i < Tile::kBlockN / 8; ++i) {
      const int col = kv0 + 8 * i + 2 * t;
      if (col >= Nk) s[4 * i] = s[4 * i + 2] = -INFINITY;
      if (col + 1 >= Nk) s[4 * i + 1] = s[4 * i + 3] = -INFINITY;
    }
  }

  // Online softmax of the tile in s: updates m and l, overwrites s with p = 2^(s·scale_log2 -
  // m·scale_log2) and returns the factor alpha[r] the old O rows must take. Every key tile holds at
  // least one key < Nk, so the new maximum is finite.
  __device__ __forceinline__ void softmax(float scale_log2, float (&alpha)[2]) {
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float mx = m[r];
#pragma unroll
      for (int i = 0; i < Tile::kBlockN / 8; ++i) mx = fmaxf(mx, fmaxf(s[4 * i + 2 * r], s[4 * i + 2 * r + 1]));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      const float m_scaled = mx * scale_log2;
      alpha[r] = exp2_approx(m[r] * scale_log2 - m_scaled);  // m = -inf on the first tile: 0
      m[r] = mx;
      // P·2^kPExponent (FP8; 16-bit types take P as it is).
      const float shift = Tile::kFp8 ? Tile::kPExponent - m_scaled : -m_scaled;
      float sum = 0.f;
#pragma unroll
      for (int i = 0; i < Tile::kBlockN / 8; ++i) {
        float& a = s[4 * i + 2 * r];
        float& b = s[4 * i + 2 * r + 1];
        if (i % 4 < Tile::kPolynomialExpPerFour) {
          a = exp2_polynomial(fmaf(a, scale_log2, shift));
          b = exp2_polynomial(fmaf(b, scale_log2, shift));
        } else {
          a = exp2_approx(fmaf(a, scale_log2, shift));
          b = exp2_approx(fmaf(b, scale_log2, shift));
        }
        sum += a + b;
      }
      l[r] = l[r] * alpha[r] + sum;
    }
  }

  __device__ __forceinline__ void rescale_o(const float (&alpha)[2]) {
#pragma unroll
    for (int i = 0; i < Tile::kORegs / 4; ++i) {
      o[4 * i] *= alpha[0];
      o[4 * i + 1] *= alpha[0];
      o[4 * i + 2] *= alpha[1];
      o[4 * i + 3] *= alpha[1];
    }
  }

  // P as the A operand of k step kk. 16-bit (keys 16kk..16kk+15): A register j holds
  // A[16w + g + 8(j%2)][8(j/2) + 2t + {0,1}], which is the S accumulator pair s[8kk + 2j], s[8kk + 2j + 1].
  // FP8 (key slots 32kk..32kk+31): A register j holds A[16w + g + 8r][16h' + 4t + {0..3}], r = j%2,
  // h' = j/2, filled from 16-key block h = 2kk + h' with the thread's own keys of rows g + 8r:
  // s[8h + 2r], s[8h + 2r + 1] (keys 16h + 2t, +1) and s[8h + 4 + 2r], +1 (keys 16h + 8 + 2t, +1),
  // the slot order transpose_v_fp8 gives V.
  __device__ __forceinline__ void pack_p() {
#pragma unroll
    for (int kk = 0; kk < Tile::kPVSteps; ++kk) {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        if constexpr (Tile::kFp8) {
          const int h = 2 * kk + j / 2;
          const int r = j % 2;
          p[kk][j] = pack_fp8x4<typename Tile::P>(s[8 * h + 2 * r], s[8 * h + 2 * r + 1], s[8 * h + 4 + 2 * r],
                                                  s[8 * h + 4 + 2 * r + 1]);
        } else {
          p[kk][j] = pack_pair<T>(s[8 * kk + 2 * j], s[8 * kk + 2 * j + 1]);
        }
      }
    }
  }
};

#endif  // __CUDA_ARCH__

// FP8's per-tensor scales in device memory (FlashWgmmaFp8); unused by 16-bit launches.
struct Fp8Scales {
  const float* descale_q;
  const float* descale_k;
  const float* descale_v;
  const float* scale_o;
};

template <typename T, int kHeadDim>
__global__ void __launch_bounds__(WgmmaFlashTile<T, kHeadDim>::kThreads, 1)
    flash_attention_wgmma(const __grid_constant__ CUtensorMap map_q, const __grid_constant__ CUtensorMap map_k,
                          const __grid_constant__ CUtensorMap map_v, T* __restrict__ O, int Nq, int Nk,
                          float scale_log2, Fp8Scales fp8) {
#if defined(__CUDA_ARCH__)
  using Tile = WgmmaFlashTile<T, kHeadDim>;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // The swizzle pattern repeats every 1024 bytes and the descriptors assume base offset 0: align the
  // base by hand (the extern alignment is no promise about the shared window).
  const uint32_t raw = tma::smem_address(smem_raw);
  const uint32_t base = swizzle_atom_aligned(raw);
  unsigned char* const smem = smem_raw + (base - raw);

  const int tid = static_cast<int>(threadIdx.x);
  const int wg = tid / 128;
  const int q0 = static_cast<int>(blockIdx.x) * Tile::kBlockM;
  const int head = static_cast<int>(blockIdx.y);
  const int n_tiles = (Nk + Tile::kBlockN - 1) / Tile::kBlockN;

  const uint32_t bar = base + Tile::kBarOffset;
  const uint32_t q_full = bar;
  auto k_full = [&](int s) { return bar + 8u * (1 + s); };
  auto k_empty = [&](int s) { return bar + 8u * (1 + Tile::kStages + s); };
  auto v_full = [&](int s) { return bar + 8u * (1 + 2 * Tile::kStages + s); };
  auto v_empty = [&](int s) { return bar + 8u * (1 + 3 * Tile::kStages + s); };
  auto k_stage = [&](int s) { return base + Tile::kKOffset + static_cast<uint32_t>(s) * Tile::kKBytes; };
  auto v_stage = [&](int s) { return base + Tile::kVOffset + static_cast<uint32_t>(s) * Tile::kVBytes; };

  if (tid == 0) {
    tma::barrier_init(q_full, 1);
    for (int s = 0; s < Tile::kStages; ++s) {
      tma::barrier_init(k_full(s), 1);  // the producer's arrive.expect_tx; the bytes complete the phase
      tma::barrier_init(v_full(s), 1);
      tma::barrier_init(k_empty(s), 4 * Tile::kConsumers);  // one arrival per consumer warp
      tma::barrier_init(v_empty(s), 4 * Tile::kConsumers);
    }
    tma::fence_barrier_init();
    tma::fence_proxy_async();
  }
  __syncthreads();

  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Tile::kProducerRegs));
    if (tid == 0) {
      tma::prefetch_map(&map_q);
      tma::prefetch_map(&map_k);
      tma::prefetch_map(&map_v);
      tma::barrier_arrive_expect_bytes(q_full, Tile::kQBytes);
#pragma unroll
      for (int pn = 0; pn < Tile::kPanels; ++pn) {
        tma::load_3d(base + Tile::kQOffset + pn * Tile::kQPanelBytes, &map_q, q_full, Tile::kPanelCols * pn, q0,
                     head);
      }
      for (int j = 0; j < n_tiles; ++j) {
        const int s = j % Tile::kStages;
        const int round = j / Tile::kStages;
        // Round r of a stage reuses it once the consumers released round r - 1: that release
        // completed phase r - 1 of the empty barrier, of parity (r - 1) & 1.
        if (round > 0) tma::barrier_wait(k_empty(s), static_cast<uint32_t>((round - 1) & 1));
        tma::barrier_arrive_expect_bytes(k_full(s), Tile::kKBytes);
#pragma unroll
        for (int pn = 0; pn < Tile::kPanels; ++pn) {
          tma::load_3d(k_stage(s) + pn * Tile::kKVPanelBytes, &map_k, k_full(s), Tile::kPanelCols * pn,
                       j * Tile::kBlockN, head);
        }
        if (round > 0) tma::barrier_wait(v_empty(s), static_cast<uint32_t>((round - 1) & 1));
        tma::barrier_arrive_expect_bytes(v_full(s), Tile::kVBytes);
        if constexpr (Tile::kFp8) {  // transposed V: one box of d rows, kBlockN keys each
          tma::load_3d(v_stage(s), &map_v, v_full(s), j * Tile::kBlockN, 0, head);
        } else {
#pragma unroll
          for (int pn = 0; pn < Tile::kPanels; ++pn) {
            tma::load_3d(v_stage(s) + pn * Tile::kKVPanelBytes, &map_v, v_full(s), Tile::kPanelCols * pn,
                         j * Tile::kBlockN, head);
          }
        }
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Tile::kConsumerRegs));
    const int c = wg - 1;             // query rows 64c..64c+63 of the tile
    const int ctid = tid - 128 * wg;  // thread in the warpgroup
    const int warp = ctid / 32;       // rows 16·warp..16·warp+15 of the warpgroup's 64
    const int lane = ctid % 32;
    const int g = lane / 4;
    const int t = lane % 4;
    const bool warp_leader = lane == 0;
    const uint32_t scratch = base + Tile::kScratchOffset + 4u * static_cast<uint32_t>((tid - 128) / 32);  // never read
    // This warpgroup's 64 rows of Q: 64·c rows into every Q panel (8192·c bytes, 1024-aligned).
    const uint32_t q_rows = base + Tile::kQOffset + static_cast<uint32_t>(c) * 64 * Tile::kRowBytes;

    Consumer<T, kHeadDim> cs;
#pragma unroll
    for (int i = 0; i < Tile::kORegs; ++i) cs.o[i] = 0.f;
    cs.m[0] = cs.m[1] = -INFINITY;
    cs.l[0] = cs.l[1] = 0.f;
    const bool tail = n_tiles * Tile::kBlockN > Nk;  // the last tile holds keys >= Nk
    [[maybe_unused]] float out_scale = 1.0f;  // O / l times this: FP8 dequantises V and quantises O in one factor
    if constexpr (Tile::kFp8) {
      scale_log2 *= *fp8.descale_q * *fp8.descale_k;
      out_scale = *fp8.descale_v * *fp8.scale_o;
    }

    tma::barrier_wait(q_full, 0);

    // Tile 0: S(0), softmax, P(0).
    tma::barrier_wait(k_full(0), 0);
    wgmma::fence();
    cs.issue_qk(q_rows, k_stage(0));
    wgmma::commit_group();
    wgmma::wait_group<0>();
    wgmma::fence_registers(cs.s);
    if (warp_leader) tma::barrier_arrive(k_empty(0));
    if (tail && n_tiles == 1) cs.mask_tail(0, Nk, t);
    float alpha[2];
    cs.softmax(scale_log2, alpha);  // alpha = 0 and O = 0: nothing to rescale
    cs.pack_p();

    for (int j = 1; j < n_tiles; ++j) {
      const int s = j % Tile::kStages;
      const int sp = (j - 1) % Tile::kStages;
      // Both waits before the fence (C7519, above). V(j-1) landed long ago.
      tma::barrier_wait(k_full(s), static_cast<uint32_t>((j / Tile::kStages) & 1));
      tma::barrier_wait(v_full(sp), static_cast<uint32_t>(((j - 1) / Tile::kStages) & 1));
      // The fence orders the register writes above (O rescaled, P packed) before the wgmmas that
      // read or write them; the register fences keep the compiler from sinking those writes below it.
      wgmma::fence_registers(cs.o);
      wgmma::fence_registers(cs.p);
      wgmma::fence();
      cs.issue_qk(q_rows, k_stage(s));  // S(j)
      wgmma::commit_group();
      cs.issue_pv(v_stage(sp));  // O += P(j-1) V(j-1)
      wgmma::commit_group();
      wgmma::wait_group<1>();  // S(j) done; P(j-1) V(j-1) may still run
      wgmma::fence_registers(cs.s);
      if (warp_leader) tma::barrier_arrive(k_empty(s));
      if (tail && j == n_tiles - 1) cs.mask_tail(j * Tile::kBlockN, Nk, t);
      cs.softmax(scale_log2, alpha);  // overlaps P(j-1) V(j-1) on the tensor cores
      // The softmax fence (above): keeps the wait below after the softmax.
      // Every lane issues it (the softmax of all lanes is then ordered before the wait); lane 0 writes.
      asm volatile("{\n .reg .pred p;\n setp.ne.u32 p, %2, 0;\n @p st.shared.f32 [%0], %1;\n}\n" ::"r"(scratch),
                   "f"(cs.l[0] + cs.l[1]), "r"(static_cast<uint32_t>(warp_leader)) : "memory");
      wgmma::wait_group<0>();  // P(j-1) V(j-1) done: O and P may be touched again
      wgmma::fence_registers(cs.o);
      wgmma::fence_registers(cs.p);
      if (warp_leader) tma::barrier_arrive(v_empty(sp));
      cs.rescale_o(alpha);
      cs.pack_p();  // only now: the P·V in flight read P(j-1) from the same registers
    }
    // O += P(last) V(last).
    const int sl = (n_tiles - 1) % Tile::kStages;
    tma::barrier_wait(v_full(sl), static_cast<uint32_t>(((n_tiles - 1) / Tile::kStages) & 1));
    wgmma::fence();
    cs.issue_pv(v_stage(sl));
    wgmma::commit_group();
    wgmma::wait_group<0>();
    wgmma::fence_registers(cs.o);
    if (warp_leader) tma::barrier_arrive(v_empty(sl));

    // Epilogue: O / l through this warpgroup's Q rows.
    float inv[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float sum = cs.l[r];
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);
      sum += __shfl_xor_sync(0xffffffffu, sum, 2);
      // sum >= 1: the row maximum contributes 2^0 (2^8 for FP8).
      if constexpr (Tile::kFp8) {
        inv[r] = out_scale / sum;
      } else {
        inv[r] = 1.f / sum;
      }
    }
    // Every warp of this warpgroup is past its last wgmma reading these Q rows; the proxy fence
    // orders the async-proxy accesses (TMA writes, wgmma reads) before the ordinary stores below.
    tma::named_barrier_sync(1 + c, 128);
    tma::fence_proxy_async();
    unsigned char* const rows = smem + Tile::kQOffset + c * 64 * Tile::kRowBytes;
    // Element (row R, col C) sits in panel C / kPanelCols, row R, 16-byte chunk (byte (C % kPanelCols)
    // * sizeof(T)) / 16 ^ (R%8) (the 128-byte swizzle; R%8 is the row's phase because the block is
    // 1024-aligned).
    constexpr int kElemBytes = static_cast<int>(sizeof(T));
#pragma unroll
    for (int i = 0; i < Tile::kORegs / 4; ++i) {
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        const int row = 16 * warp + g + 8 * r;
        const int col = 8 * i + 2 * t;
        const int chunk = ((col % Tile::kPanelCols) * kElemBytes / 16) ^ (row % 8);
        unsigned char* dst = rows + (col / Tile::kPanelCols) * Tile::kQPanelBytes + row * Tile::kRowBytes +
                             chunk * 16 + (col * kElemBytes) % 16;
        const float lo = cs.o[4 * i + 2 * r] * inv[r];
        const float hi = cs.o[4 * i + 2 * r + 1] * inv[r];
        if constexpr (Tile::kFp8) {
          *reinterpret_cast<uint16_t*>(dst) = pack_fp8x2<T>(lo, hi);
        } else {
          *reinterpret_cast<uint32_t*>(dst) = pack_pair<T>(lo, hi);
        }
      }
    }
    tma::named_barrier_sync(1 + c, 128);
    constexpr int kChunksPerRow = kHeadDim * kElemBytes / 16;
    constexpr int kChunks = 64 * kChunksPerRow;
    unsigned char* o_head = reinterpret_cast<unsigned char*>(O) +
                            static_cast<std::size_t>(head) * static_cast<std::size_t>(Nq) * kHeadDim * kElemBytes;
#pragma unroll
    for (int pass = 0; pass < (kChunks + 127) / 128; ++pass) {
      const int idx = ctid + 128 * pass;
      if (kChunks % 128 == 0 || idx < kChunks) {
        const int row = idx / kChunksPerRow;
        const int ch = idx % kChunksPerRow;  // 16-byte chunk of the row: columns 8ch..8ch+7
        const int grow = q0 + 64 * c + row;
        if (grow < Nq) {
          const unsigned char* src =
              rows + (ch / 8) * Tile::kQPanelBytes + row * Tile::kRowBytes + (((ch % 8) ^ (row % 8)) * 16);
          *reinterpret_cast<uint4*>(o_head + static_cast<std::size_t>(grow) * kHeadDim * kElemBytes + ch * 16) =
              *reinterpret_cast<const uint4*>(src);
        }
      }
    }
  }
#endif
}

// The key in slot `slot` (0..15) of a 16-key block of transposed V: slot 4t + e holds key 2t + (e&1)
// + 8(e>>1), the keys whose probabilities thread t of a quad packs into its A registers (pack_p).
__host__ __device__ constexpr int fp8_slot_key(int slot) { return 2 * (slot / 4) + (slot % 2) + 8 * ((slot % 4) / 2); }
// Every key of a block in exactly one slot (else a key would be dropped or counted twice).
constexpr bool fp8_slots_are_a_permutation() {
  int seen = 0;
  for (int slot = 0; slot < 16; ++slot) seen |= 1 << fp8_slot_key(slot);
  return seen == 0xFFFF;
}
static_assert(fp8_slots_are_a_permutation(), "fp8_slot_key places each of a block's 16 keys once");

constexpr int kTransposeKeys = 64;  // keys (and columns of d) per block of transpose_v_fp8

// V [heads, Nk, d] -> Vt [heads, d, nk_padded = fp8_padded_keys(Nk)], each 16-key block's keys in slot order
// (fp8_slot_key), zeros for keys >= Nk. A 64 x 64 byte tile through shared memory, one 16-byte load
// (16 columns of a key) and one 16-byte store (a 16-key block of a column) per thread; d % 16 == 0,
// so a 16-column group never straddles d.
__global__ void __launch_bounds__(256) transpose_v_fp8(const uint8_t* __restrict__ v, uint8_t* __restrict__ vt,
                                                       int nk, int nk_padded, int d) {
  // [key][column]; 68-byte rows put the four 16-key blocks a warp gathers from into two banks, not one.
  __shared__ __align__(16) uint8_t tile[kTransposeKeys][kTransposeKeys + 4];
  static_assert(kTransposeKeys * kTransposeKeys / 16 == 256, "one 16-byte group per thread each way");
  const int key0 = static_cast<int>(blockIdx.x) * kTransposeKeys;
  const int col0 = static_cast<int>(blockIdx.y) * kTransposeKeys;
  const std::size_t head = blockIdx.z;
  const uint8_t* v_head = v + head * static_cast<std::size_t>(nk) * d;
  uint8_t* vt_head = vt + head * static_cast<std::size_t>(d) * nk_padded;
  const int tid = static_cast<int>(threadIdx.x);
  {
    const int key = tid / 4;
    const int col = 16 * (tid % 4);
    uint4 chunk = make_uint4(0, 0, 0, 0);
    if (key0 + key < nk && col0 + col < d) {
      chunk = *reinterpret_cast<const uint4*>(v_head + static_cast<std::size_t>(key0 + key) * d + col0 + col);
    }
    auto* row = reinterpret_cast<uint32_t*>(&tile[key][col]);
    row[0] = chunk.x;
    row[1] = chunk.y;
    row[2] = chunk.z;
    row[3] = chunk.w;
  }
  __syncthreads();
  const int col = tid / 4;
  const int block = 16 * (tid % 4);  // the 16-key block within the tile
  if (col0 + col >= d || key0 + block >= nk_padded) return;
  uint32_t words[4];
#pragma unroll
  for (int w = 0; w < 4; ++w) {
    words[w] = 0;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      words[w] |= static_cast<uint32_t>(tile[block + fp8_slot_key(4 * w + e)][col]) << (8 * e);
    }
  }
  *reinterpret_cast<uint4*>(vt_head + static_cast<std::size_t>(col0 + col) * nk_padded + key0 + block) =
      make_uint4(words[0], words[1], words[2], words[3]);
}

}  // namespace flash_wgmma_detail

namespace {

using flash_wgmma_detail::flash_attention_wgmma;
using flash_wgmma_detail::Fp8Scales;
using flash_wgmma_detail::has_wgmma_flash_kernel;
using flash_wgmma_detail::WgmmaFlashTile;

// A [heads, n, d] tensor seen as 3-D {d, n, heads} (innermost first), read in boxes
// {128 bytes of columns, box_rows, 1}, 128-byte swizzled. Columns >= d and rows >= n read as zero.
template <typename T>
CUtensorMap head_map(const void* base, int n, std::size_t heads, int d, int box_rows) {
  const cuuint64_t dims[3] = {static_cast<cuuint64_t>(d), static_cast<cuuint64_t>(n), static_cast<cuuint64_t>(heads)};
  const cuuint64_t strides[2] = {static_cast<cuuint64_t>(d) * sizeof(T),
                                 static_cast<cuuint64_t>(n) * static_cast<cuuint64_t>(d) * sizeof(T)};
  const cuuint32_t box[3] = {128 / sizeof(T), static_cast<cuuint32_t>(box_rows), 1};
  return swizzled_tensor_map(tensor_map_data_type<T>(), base, 3, dims, strides, box, "flash_wgmma");
}

// Transposed FP8 V [heads, d, Nk padded] as 3-D {keys, d, heads}, in boxes of {block_n keys, d rows, 1};
// bytes to the copy engine whichever the format.
CUtensorMap transposed_v_map(const void* base, int nk, std::size_t heads, int d, int block_n) {
  const auto keys = static_cast<cuuint64_t>(fp8_padded_keys(nk));
  const cuuint64_t dims[3] = {keys, static_cast<cuuint64_t>(d), static_cast<cuuint64_t>(heads)};
  const cuuint64_t strides[2] = {keys, keys * static_cast<cuuint64_t>(d)};
  const cuuint32_t box[3] = {static_cast<cuuint32_t>(block_n), static_cast<cuuint32_t>(d), 1};
  return swizzled_tensor_map(tensor_map_data_type<__nv_fp8_e4m3>(), base, 3, dims, strides, box, "flash_wgmma V");
}

template <typename T, int kHeadDim>
const void* kernel_address() {
  return reinterpret_cast<const void*>(&flash_attention_wgmma<T, kHeadDim>);
}

// Calls f(T{}) for the storage type of `dtype`: f16, bf16, e4m3 or e5m2.
template <typename F>
void dispatch_flash_storage(DType dtype, F&& f) {
  if (dtype == DType::E4M3) {
    f(__nv_fp8_e4m3{});
    return;
  }
  if (dtype == DType::E5M2) {
    f(__nv_fp8_e5m2{});
    return;
  }
  dispatch_half_storage(dtype, "flash_wgmma (or e4m3, e5m2)", f);
}

// Calls f(integral_constant<d>) for a head dim that has a kernel in T; std::invalid_argument otherwise.
template <typename T, typename F>
void dispatch_kernel_head_dim(int d, F&& f) {
  dispatch_head_dim("flash_wgmma", d, [&](auto dim) {
    if constexpr (has_wgmma_flash_kernel<T, decltype(dim)::value>()) {
      f(dim);
    } else {
      throw std::invalid_argument("flash_wgmma: no FP8 kernel for head dim " + std::to_string(d) +
                                  " (FP8 rows need d % 16 == 0)");
    }
  });
}

// sm_90a code loads only on compute capability 9.0: say so instead of cudaErrorNoKernelImageForDevice.
void require_cc90(int device) {
  int major = 0;
  int minor = 0;
  ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major != 9 || minor != 0) {
    throw std::runtime_error("flash_wgmma: sm_90a code runs only on compute capability 9.0; device " +
                             std::to_string(device) + " is " + std::to_string(major) + "." + std::to_string(minor));
  }
}

void validate_fp8(const FlashWgmmaFp8* fp8) {
  if (fp8 == nullptr || fp8->descale_q == nullptr || fp8->descale_k == nullptr || fp8->descale_v == nullptr ||
      fp8->scale_o == nullptr || fp8->v_transposed == nullptr) {
    throw std::invalid_argument("prepare_flash_attention_wgmma: FP8 needs the four scales and the transposed-V buffer");
  }
  if (reinterpret_cast<std::uintptr_t>(fp8->v_transposed) % 16 != 0) {
    throw std::invalid_argument("prepare_flash_attention_wgmma: the transposed-V buffer must be 16-byte aligned");
  }
}

}  // namespace

FlashWgmmaLaunch prepare_flash_attention_wgmma(DType dtype, const void* q, const void* k, const void* v, void* o,
                                               const AttentionDims& dims, const FlashWgmmaFp8* fp8) {
  validate_attention_args("prepare_flash_attention_wgmma", q, k, v, o, dims);
  // The dtype, the head dim and the FP8 operands too, before any CUDA call.
  dispatch_flash_storage(dtype, [&](auto tag) { dispatch_kernel_head_dim<decltype(tag)>(dims.D, [](auto) {}); });
  if (is_fp8(dtype)) validate_fp8(fp8);
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  require_cc90(device);
  FlashWgmmaLaunch l;
  l.dtype = dtype;
  l.dims = dims;
  l.q = q;
  l.k = k;
  l.v = v;
  l.o = o;
  if (is_fp8(dtype)) l.fp8 = *fp8;
  dispatch_flash_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    dispatch_kernel_head_dim<T>(dims.D, [&](auto d) {
      constexpr int kD = decltype(d)::value;
      using Tile = WgmmaFlashTile<T, kD>;
      opt_in_dynamic_shared_memory(kernel_address<T, kD>(), Tile::kSmemBytes, "flash_wgmma");
      l.map_q = head_map<T>(q, dims.Nq, dims.heads(), kD, Tile::kBlockM);
      l.map_k = head_map<T>(k, dims.Nk, dims.heads(), kD, Tile::kBlockN);
      if constexpr (Tile::kFp8) {
        l.map_v = transposed_v_map(fp8->v_transposed, dims.Nk, dims.heads(), kD, Tile::kBlockN);
      } else {
        l.map_v = head_map<T>(v, dims.Nk, dims.heads(), kD, Tile::kBlockN);
      }
    });
  });
  return l;
}

void launch_flash_attention_wgmma(const FlashWgmmaLaunch& l, cudaStream_t stream) {
  dispatch_flash_storage(l.dtype, [&](auto tag) {
    using T = decltype(tag);
    dispatch_kernel_head_dim<T>(l.dims.D, [&](auto d) {
      constexpr int kD = decltype(d)::value;
      using Tile = WgmmaFlashTile<T, kD>;
      Fp8Scales scales{};
      if constexpr (Tile::kFp8) {
        using flash_wgmma_detail::kTransposeKeys;
        const int nk_padded = fp8_padded_keys(l.dims.Nk);
        const dim3 grid(static_cast<unsigned>((nk_padded + kTransposeKeys - 1) / kTransposeKeys),
                        static_cast<unsigned>((kD + kTransposeKeys - 1) / kTransposeKeys),
                        static_cast<unsigned>(l.dims.heads()));
        flash_wgmma_detail::transpose_v_fp8<<<grid, 256, 0, stream>>>(static_cast<const uint8_t*>(l.v),
                                                                      static_cast<uint8_t*>(l.fp8.v_transposed),
                                                                      l.dims.Nk, nk_padded, kD);
        ARCHBENCH_CHECK_LAUNCH();
        scales = {l.fp8.descale_q, l.fp8.descale_k, l.fp8.descale_v, l.fp8.scale_o};
      }
      const dim3 grid(static_cast<unsigned>((l.dims.Nq + Tile::kBlockM - 1) / Tile::kBlockM),
                      static_cast<unsigned>(l.dims.heads()));
      const float scale_log2 = static_cast<float>(kLog2e / std::sqrt(static_cast<double>(kD)));
      flash_attention_wgmma<T, kD><<<grid, Tile::kThreads, Tile::kSmemBytes, stream>>>(
          l.map_q, l.map_k, l.map_v, static_cast<T*>(l.o), l.dims.Nq, l.dims.Nk, scale_log2, scales);
      ARCHBENCH_CHECK_LAUNCH();
    });
  });
}

const void* flash_attention_wgmma_kernel(DType dtype, int head_dim) {
  const void* kernel = nullptr;
  dispatch_flash_storage(dtype, [&](auto tag) {
    using T = decltype(tag);
    dispatch_kernel_head_dim<T>(head_dim, [&](auto d) { kernel = kernel_address<T, decltype(d)::value>(); });
  });
  return kernel;
}

const void* fp8_transpose_v_kernel() { return reinterpret_cast<const void*>(&flash_wgmma_detail::transpose_v_fp8); }

}  // namespace archbench::kernels::attention
