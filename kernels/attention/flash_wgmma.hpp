// The Hopper flash attention: wgmma (sm_90a) fed by the tensor memory accelerator. Same contract as
// attention_kernels.hpp (BHND, O = softmax(Q Kᵀ / sqrt(d)) V, no mask, f16 or bf16 storage, fp32
// accumulation and softmax, any Nq and Nk, d in kHeadDims, 16-byte aligned buffers); the design is
// in flash_wgmma.cu and docs/reference/workload.md.
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

#include "harness/ops/dtype.hpp"
#include "kernels/attention/attention_dims.hpp"

namespace archbench::kernels::attention {

// One problem's launch, prepared: the tensor maps hold the buffer addresses, so they are encoded
// once for a set of buffers (microseconds of host time each) and a launch only enqueues.
struct FlashWgmmaLaunch {
  DType dtype = DType::F16;
  AttentionDims dims;
  const void* q = nullptr;  // the buffers the maps describe
  const void* k = nullptr;
  const void* v = nullptr;
  void* o = nullptr;
  CUtensorMap map_q{}, map_k{}, map_v{};

  [[nodiscard]] bool describes(const void* q_, const void* k_, const void* v_, const void* o_) const {
    return q == q_ && k == k_ && v == v_ && o == o_;
  }
};

// Checks the arguments (std::invalid_argument, as validate_attention_args; dtype f16 or bf16), the
// current device (compute capability 9.0, else std::runtime_error), opts the kernel into its shared
// memory on this device and encodes the three tensor maps. Synchronizes nothing.
[[nodiscard]] FlashWgmmaLaunch prepare_flash_attention_wgmma(DType dtype, const void* q, const void* k,
                                                             const void* v, void* o, const AttentionDims& dims);

// Enqueues the prepared launch on `stream`; never synchronizes; a failing launch throws.
void launch_flash_attention_wgmma(const FlashWgmmaLaunch& prepared, cudaStream_t stream);

// The __global__ function a launch of this dtype and head dim uses; null when this build has no
// sm_90a target. A build with it throws std::invalid_argument for another dtype or head dim.
[[nodiscard]] const void* flash_attention_wgmma_kernel(DType dtype, int head_dim);

}  // namespace archbench::kernels::attention
