// The Hopper flash attention: wgmma (sm_90a) fed by the tensor memory accelerator. Same contract as
// attention_kernels.hpp (BHND, O = softmax(Q Kᵀ / sqrt(d)) V, no mask, f16 or bf16 storage, fp32
// accumulation and softmax, any Nq and Nk, d in kHeadDims, 16-byte aligned buffers); the design is
// in flash_wgmma.cu and docs/reference/workload.md. FP8 storage too (e4m3 or e5m2 Q, K, V and O; the
// softmax's P in e4m3 for both), at head dims that are multiples of 16, with per-tensor scales
// (FlashWgmmaFp8).
//
// Its code exists only for sm_90a, which runs only on compute capability 9.0 exactly: the build
// compiles kernels/attention/flash_wgmma.cu for sm_90a alone when the arch list has 9.0 or 9.0a,
// and kernels/attention/flash_wgmma_absent.cpp otherwise (null kernel addresses, prepare throws),
// exactly as for kernels/matmul/gemm_wgmma.hpp.
//
// Plain C++17: includable from host code compiled by g++ and from .cu files.
#pragma once

#include <cuda.h>  // CUtensorMap only: the driver is reached through the runtime
#include <cuda_runtime.h>

#include <cstddef>

#include "harness/ops/dtype.hpp"
#include "kernels/attention/attention_dims.hpp"

namespace archbench::kernels::attention {

// What an FP8 launch reads besides Q, K, V and O: per-tensor scales in device memory, as the
// frameworks keep them (Transformer Engine, FlashAttention-3's descale tensors): the true Q, K, V
// are the stored values times their descales (positive), and O is stored as O * scale_o (saturated
// to the format's largest finite value, e4m3's +-448 or e5m2's +-57344). FP8 wgmma reads its B
// operand K-major only, so P·V needs V transposed: every launch first writes it into `v_transposed`
// (fp8_transposed_v_bytes(dims) bytes, 16-byte aligned), in the launch and its time; two launches in
// flight at once need a buffer each.
struct FlashWgmmaFp8 {
  const float* descale_q = nullptr;
  const float* descale_k = nullptr;
  const float* descale_v = nullptr;
  const float* scale_o = nullptr;
  void* v_transposed = nullptr;
};
// Transposed V is [B·H, d, Nk rounded up to whole 16-key blocks] bytes (16-byte rows for the copies).
[[nodiscard]] constexpr int fp8_padded_keys(int nk) { return (nk + 15) / 16 * 16; }
[[nodiscard]] inline size_t fp8_transposed_v_bytes(const AttentionDims& dims) {
  return dims.heads() * static_cast<size_t>(dims.D) * static_cast<size_t>(fp8_padded_keys(dims.Nk));
}

// One problem's launch, prepared: the tensor maps hold the buffer addresses, so they are encoded
// once for a set of buffers (microseconds of host time each) and a launch only enqueues.
struct FlashWgmmaLaunch {
  DType dtype = DType::F16;
  AttentionDims dims;
  const void* q = nullptr;  // the buffers the maps describe
  const void* k = nullptr;
  const void* v = nullptr;
  void* o = nullptr;
  FlashWgmmaFp8 fp8;  // FP8 only; map_v then describes fp8.v_transposed
  CUtensorMap map_q{}, map_k{}, map_v{};

  // The buffers only: a prepared FP8 launch keeps the scales and the transposed-V buffer it was
  // prepared with.
  [[nodiscard]] bool describes(const void* q_, const void* k_, const void* v_, const void* o_) const {
    return q == q_ && k == k_ && v == v_ && o == o_;
  }
};

// Checks the arguments (std::invalid_argument, as validate_attention_args; dtype f16, bf16, e4m3 or
// e5m2, FP8 with `fp8` and every pointer in it set and d % 16 == 0), the current device (compute
// capability 9.0, else std::runtime_error), opts the kernel into its shared memory on this device
// and encodes the three tensor maps. Synchronizes nothing.
[[nodiscard]] FlashWgmmaLaunch prepare_flash_attention_wgmma(DType dtype, const void* q, const void* k,
                                                             const void* v, void* o, const AttentionDims& dims,
                                                             const FlashWgmmaFp8* fp8 = nullptr);

// Enqueues the prepared launch on `stream`; never synchronizes; a failing launch throws.
void launch_flash_attention_wgmma(const FlashWgmmaLaunch& prepared, cudaStream_t stream);

// The __global__ function a launch of this dtype and head dim uses; null when this build has no
// sm_90a target. A build with it throws std::invalid_argument for another dtype or head dim.
[[nodiscard]] const void* flash_attention_wgmma_kernel(DType dtype, int head_dim);
// The kernel an FP8 launch runs first (V transposed, bytes whichever the format); null without sm_90a.
[[nodiscard]] const void* fp8_transpose_v_kernel();

}  // namespace archbench::kernels::attention
