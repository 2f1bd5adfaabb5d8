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
//
// Two places depend on how ptxas schedules (nvcc 13.0, checked in SASS; recheck after a toolkit
// change: every HGMMA count and the softmax EX2s between the two wgmma waits):
//   * The softmax fence: ptxas hoists `wgmma.wait_group 0` above the whole softmax (nothing in it
//     depends on the wait), silently serializing softmax and P·V. A shared-memory store of a value
//     that depends on every exp of the tile, just before the wait, keeps the wait after it.
//   * The V wait sits before the wgmma fence: a wgmma in another basic block than its fence (the
//     wait loop is a branch) makes ptxas inject a second fence (C7519).
#include "kernels/attention/attention_kernels.hpp"
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

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "flash_wgmma.cu is compiled for sm_90a only (wgmma, setmaxnreg): see CMakeLists.txt"
#endif

namespace archbench::kernels::attention {
// A named namespace, as in flash_tc.cu: internal-linkage members the host pass does not use would
// draw nvcc's "declared but never referenced" warning.
namespace flash_wgmma_detail {

// Per head dim: keys per tile (the n of S = Q Kᵀ) and the K/V ring depth, chosen to fit 227 KB of
// shared memory and the consumers' 240 registers; d = 160 with 128 keys would need 240 KB. Untuned.
struct WgmmaFlashConfig {
  int block_n;
  int stages;
};
constexpr WgmmaFlashConfig wgmma_flash_config(int head_dim) {
  switch (head_dim) {
    case 40: return {128, 3};
    case 64: return {128, 3};
    case 80: return {128, 2};
    case 128: return {128, 2};
    case 160: return {64, 2};
    default: return {0, 0};  // no kernel for this head dim (WgmmaFlashTile refuses it)
  }
}

template <int kHeadDim>
struct WgmmaFlashTile {
  static_assert(wgmma_flash_config(kHeadDim).block_n > 0, "a head dim with a WgmmaFlashConfig");
  static constexpr int kConsumers = 2;             // consumer warpgroups, 64 query rows each
  static constexpr int kBlockM = 64 * kConsumers;  // query rows per CTA
  static constexpr int kThreads = 128 * (1 + kConsumers);
  static constexpr int kBlockN = wgmma_flash_config(kHeadDim).block_n;
  static constexpr int kStages = wgmma_flash_config(kHeadDim).stages;
  static constexpr int kPanels = (kHeadDim + 63) / 64;   // 64-column swizzle panels per row
  static constexpr int kQKSteps = (kHeadDim + 15) / 16;  // k16 steps of S = Q Kᵀ (40 reads zeros to 48)
  static constexpr int kPVSteps = kBlockN / 16;          // k16 steps of O += P V
  static constexpr int kSRegs = kBlockN / 2;             // fp32 S accumulators per thread
  static constexpr int kORegs = kHeadDim / 2;            // fp32 O accumulators per thread
  static constexpr int kRowBytes = 128;                  // one swizzle span per panel row
  static constexpr int kQPanelBytes = kBlockM * kRowBytes;
  static constexpr int kQBytes = kPanels * kQPanelBytes;
  static constexpr int kKVPanelBytes = kBlockN * kRowBytes;
  static constexpr int kKVBytes = kPanels * kKVPanelBytes;  // one K or V stage
  // Byte offsets from the 1024-aligned base: Q, K stages, V stages, the mbarriers, the scratch words.
  static constexpr int kQOffset = 0;
  static constexpr int kKOffset = kQBytes;
  static constexpr int kVOffset = kKOffset + kStages * kKVBytes;
  static constexpr int kBarOffset = kVOffset + kStages * kKVBytes;
  static constexpr int kBarriers = 1 + 4 * kStages;  // q_full, k_full[], k_empty[], v_full[], v_empty[]
  static constexpr int kScratchOffset = kBarOffset + kBarriers * 8;  // the softmax fence's stores
  // One word per consumer warp, stored by its lane 0: a word shared by all would be a (harmless,
  // never read) write-write race that racecheck rightly reports. (One word per thread was race-free
  // too but made d = 64 24% slower on the H200, measured A/B on one machine.)
  static constexpr int kScratchBytes = kConsumers * 4 * 4;
  static constexpr int kSmemBytes = kScratchOffset + kScratchBytes + kSwizzleAtomBytes;  // + slack to align the base
  // setmaxnreg budgets: 128·24 + 256·240 = 64,512 <= 65,536 registers per SM.
  static constexpr int kProducerRegs = 24;
  static constexpr int kConsumerRegs = 240;

  static_assert(kHeadDim % 8 == 0, "wgmma n and 16-byte rows need d % 8 == 0");
  static_assert(kBlockN % 16 == 0 && kBlockN <= 256, "wgmma n <= 256, P·V k16 steps");
  static_assert(kQPanelBytes % 1024 == 0 && kKVPanelBytes % 1024 == 0, "panels start swizzle atoms");
  static_assert(kSmemBytes <= 227 * 1024, "fits the opt-in shared memory of one SM");
  static_assert(kConsumers * 128 * kConsumerRegs + 128 * kProducerRegs <= 65536, "register file");
};

#if defined(__CUDA_ARCH__)

// One consumer warpgroup's state and math. Accumulator fragment of m64nNk16: thread (warp w of the
// warpgroup, lane 4g + t) holds d[4i + 2r + c] = D[16w + g + 8r][8i + 2t + c], so each thread owns
// rows g and g + 8 of its warp's 16, and each row lives in the 4 threads of a quad.
template <typename T, int kHeadDim>
struct Consumer {
  using Tile = WgmmaFlashTile<kHeadDim>;

  float o[Tile::kORegs];
  float s[Tile::kSRegs];
  uint32_t p[Tile::kPVSteps][4];
  float m[2];  // running maximum of the raw logits of rows g, g + 8
  float l[2];  // this thread's part of the running row sums (quad-reduced at the end)

  // S = Q K(stage)ᵀ for this warpgroup's 64 rows: issue only (the caller commits and waits).
  __device__ __forceinline__ void issue_qk(uint32_t q_rows, uint32_t k_stage) {
#pragma unroll
    for (int ks = 0; ks < Tile::kQKSteps; ++ks) {
      // k16 step ks = columns 16ks..16ks+15 = panel ks/4, 32·(ks%4) bytes into its rows (the
      // hardware applies the swizzle to the computed address).
      const uint32_t col = (ks % 4) * 32;
      const uint64_t a = wgmma::smem_descriptor(q_rows + (ks / 4) * Tile::kQPanelBytes + col);
      const uint64_t b = wgmma::smem_descriptor(k_stage + (ks / 4) * Tile::kKVPanelBytes + col);
      wgmma::mma_ss<T, Tile::kBlockN>(s, a, b, ks > 0 ? 1 : 0);
    }
  }

  // O += P V(stage): issue only.
  __device__ __forceinline__ void issue_pv(uint32_t v_stage) {
#pragma unroll
    for (int kk = 0; kk < Tile::kPVSteps; ++kk) {
      // k16 step kk = keys 16kk..16kk+15 = two 8-row atoms from row 16kk of every panel.
      const uint64_t b = wgmma::smem_descriptor_mn_major(v_stage + kk * 16 * Tile::kRowBytes, Tile::kKVPanelBytes);
      wgmma::mma_rs<T, kHeadDim>(o, p[kk], b, 1);
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
      float sum = 0.f;
#pragma unroll
      for (int i = 0; i < Tile::kBlockN / 8; ++i) {
        float& a = s[4 * i + 2 * r];
        float& b = s[4 * i + 2 * r + 1];
        a = exp2_approx(fmaf(a, scale_log2, -m_scaled));
        b = exp2_approx(fmaf(b, scale_log2, -m_scaled));
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

  // P as the A operand of k step kk (keys 16kk..16kk+15): A register j holds
  // A[16w + g + 8(j%2)][8(j/2) + 2t + {0,1}], which is the S accumulator pair s[8kk + 2j], s[8kk + 2j + 1].
  __device__ __forceinline__ void pack_p() {
#pragma unroll
    for (int kk = 0; kk < Tile::kPVSteps; ++kk) {
#pragma unroll
      for (int j = 0; j < 4; ++j) p[kk][j] = pack_pair<T>(s[8 * kk + 2 * j], s[8 * kk + 2 * j + 1]);
    }
  }
};

#endif  // __CUDA_ARCH__

template <typename T, int kHeadDim>
__global__ void __launch_bounds__(WgmmaFlashTile<kHeadDim>::kThreads, 1)
    flash_attention_wgmma(const __grid_constant__ CUtensorMap map_q, const __grid_constant__ CUtensorMap map_k,
                          const __grid_constant__ CUtensorMap map_v, T* __restrict__ O, int Nq, int Nk,
                          float scale_log2) {
#if defined(__CUDA_ARCH__)
  using Tile = WgmmaFlashTile<kHeadDim>;
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
  auto k_stage = [&](int s) { return base + Tile::kKOffset + static_cast<uint32_t>(s) * Tile::kKVBytes; };
  auto v_stage = [&](int s) { return base + Tile::kVOffset + static_cast<uint32_t>(s) * Tile::kKVBytes; };

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
        tma::load_3d(base + Tile::kQOffset + pn * Tile::kQPanelBytes, &map_q, q_full, 64 * pn, q0, head);
      }
      for (int j = 0; j < n_tiles; ++j) {
        const int s = j % Tile::kStages;
        const int round = j / Tile::kStages;
        // Round r of a stage reuses it once the consumers released round r - 1: that release
        // completed phase r - 1 of the empty barrier, of parity (r - 1) & 1.
        if (round > 0) tma::barrier_wait(k_empty(s), static_cast<uint32_t>((round - 1) & 1));
        tma::barrier_arrive_expect_bytes(k_full(s), Tile::kKVBytes);
#pragma unroll
        for (int pn = 0; pn < Tile::kPanels; ++pn) {
          tma::load_3d(k_stage(s) + pn * Tile::kKVPanelBytes, &map_k, k_full(s), 64 * pn, j * Tile::kBlockN, head);
        }
        if (round > 0) tma::barrier_wait(v_empty(s), static_cast<uint32_t>((round - 1) & 1));
        tma::barrier_arrive_expect_bytes(v_full(s), Tile::kKVBytes);
#pragma unroll
        for (int pn = 0; pn < Tile::kPanels; ++pn) {
          tma::load_3d(v_stage(s) + pn * Tile::kKVPanelBytes, &map_v, v_full(s), 64 * pn, j * Tile::kBlockN, head);
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
      inv[r] = 1.f / sum;  // sum >= 1: the row maximum contributes 2^0
    }
    // Every warp of this warpgroup is past its last wgmma reading these Q rows; the proxy fence
    // orders the async-proxy accesses (TMA writes, wgmma reads) before the ordinary stores below.
    tma::named_barrier_sync(1 + c, 128);
    tma::fence_proxy_async();
    unsigned char* const rows = smem + Tile::kQOffset + c * 64 * Tile::kRowBytes;
    // Element (row R, col C) sits in panel C/64, row R, 16-byte chunk ((C%64)/8) ^ (R%8) (the
    // 128-byte swizzle; R%8 is the row's phase because the block is 1024-aligned).
#pragma unroll
    for (int i = 0; i < Tile::kORegs / 4; ++i) {
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        const int row = 16 * warp + g + 8 * r;
        const int col = 8 * i + 2 * t;
        const int chunk = ((col % 64) / 8) ^ (row % 8);
        unsigned char* dst = rows + (col / 64) * Tile::kQPanelBytes + row * Tile::kRowBytes + chunk * 16 + (col % 8) * 2;
        *reinterpret_cast<uint32_t*>(dst) =
            pack_pair<T>(cs.o[4 * i + 2 * r] * inv[r], cs.o[4 * i + 2 * r + 1] * inv[r]);
      }
    }
    tma::named_barrier_sync(1 + c, 128);
    constexpr int kChunksPerRow = kHeadDim / 8;
    constexpr int kChunks = 64 * kChunksPerRow;
    T* o_head = O + static_cast<std::size_t>(head) * static_cast<std::size_t>(Nq) * kHeadDim;
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
          *reinterpret_cast<uint4*>(o_head + static_cast<std::size_t>(grow) * kHeadDim + ch * 8) =
              *reinterpret_cast<const uint4*>(src);
        }
      }
    }
  }
#endif
}

}  // namespace flash_wgmma_detail

namespace {

using flash_wgmma_detail::flash_attention_wgmma;
using flash_wgmma_detail::WgmmaFlashTile;

// A [heads, n, d] tensor seen as 3-D {d, n, heads} (innermost first), read in boxes {64, box_rows, 1}:
// box_rows rows of 128 bytes, 128-byte swizzled. Columns >= d and rows >= n read as zero.
template <typename T>
CUtensorMap head_map(const void* base, int n, std::size_t heads, int d, int box_rows) {
  const cuuint64_t dims[3] = {static_cast<cuuint64_t>(d), static_cast<cuuint64_t>(n), static_cast<cuuint64_t>(heads)};
  const cuuint64_t strides[2] = {static_cast<cuuint64_t>(d) * sizeof(T),
                                 static_cast<cuuint64_t>(n) * static_cast<cuuint64_t>(d) * sizeof(T)};
  const cuuint32_t box[3] = {64, static_cast<cuuint32_t>(box_rows), 1};
  return swizzled_tensor_map(tensor_map_data_type<T>(), base, 3, dims, strides, box, "flash_wgmma");
}

template <typename T, int kHeadDim>
const void* kernel_address() {
  return reinterpret_cast<const void*>(&flash_attention_wgmma<T, kHeadDim>);
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

}  // namespace

FlashWgmmaLaunch prepare_flash_attention_wgmma(DType dtype, const void* q, const void* k, const void* v, void* o,
                                               const AttentionDims& dims) {
  validate_attention_args("prepare_flash_attention_wgmma", q, k, v, o, dims);
  dispatch_half_storage(dtype, "flash_wgmma", [](auto) {});  // the dtype too, before any CUDA call
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
  dispatch_half_storage(dtype, "flash_wgmma", [&](auto tag) {
    using T = decltype(tag);
    dispatch_head_dim("flash_wgmma", dims.D, [&](auto d) {
      constexpr int kD = decltype(d)::value;
      using Tile = WgmmaFlashTile<kD>;
      opt_in_dynamic_shared_memory(kernel_address<T, kD>(), Tile::kSmemBytes, "flash_wgmma");
      l.map_q = head_map<T>(q, dims.Nq, dims.heads(), kD, Tile::kBlockM);
      l.map_k = head_map<T>(k, dims.Nk, dims.heads(), kD, Tile::kBlockN);
      l.map_v = head_map<T>(v, dims.Nk, dims.heads(), kD, Tile::kBlockN);
    });
  });
  return l;
}

void launch_flash_attention_wgmma(const FlashWgmmaLaunch& l, cudaStream_t stream) {
  dispatch_half_storage(l.dtype, "flash_wgmma", [&](auto tag) {
    using T = decltype(tag);
    dispatch_head_dim("flash_wgmma", l.dims.D, [&](auto d) {
      constexpr int kD = decltype(d)::value;
      using Tile = WgmmaFlashTile<kD>;
      const dim3 grid(static_cast<unsigned>((l.dims.Nq + Tile::kBlockM - 1) / Tile::kBlockM),
                      static_cast<unsigned>(l.dims.heads()));
      const float scale_log2 = static_cast<float>(kLog2e / std::sqrt(static_cast<double>(kD)));
      flash_attention_wgmma<T, kD><<<grid, Tile::kThreads, Tile::kSmemBytes, stream>>>(
          l.map_q, l.map_k, l.map_v, static_cast<T*>(l.o), l.dims.Nq, l.dims.Nk, scale_log2);
      ARCHBENCH_CHECK_LAUNCH();
    });
  });
}

const void* flash_attention_wgmma_kernel(DType dtype, int head_dim) {
  const void* kernel = nullptr;
  dispatch_half_storage(dtype, "flash_wgmma", [&](auto tag) {
    using T = decltype(tag);
    dispatch_head_dim("flash_wgmma", head_dim, [&](auto d) { kernel = kernel_address<T, decltype(d)::value>(); });
  });
  return kernel;
}

}  // namespace archbench::kernels::attention
