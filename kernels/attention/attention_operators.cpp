// The attention family: O = softmax(Q Kᵀ / sqrt(d)) V, forward, no mask, at the attention shapes of SD1.5,
// SDXL, SD3 and Flux (docs/reference/workload.md, "The operator set", attention row, plus SD1.5's levels 1
// and 2 so that every head dim 40/64/80/128/160 is covered; cross-attention to 77 text tokens has Nq != Nk
// and a key count that is no multiple of any tile).
//
// Layout: BHND, contiguous: Q [B,H,Nq,d], K and V [B,H,Nk,d], O [B,H,Nq,d]. Shape strings are
// "B2_H8_Nq4096_Nk77_D40". FLOP = 4·B·H·Nq·Nk·d (the two matmuls; softmax excluded); bytes = Q, K,
// V read and O written once in the storage type (a fused kernel's ideal traffic), the same for
// every implementation so that their GB/s compare.
//
// Operators (family/name/dtype/shape):
//   flash_tc        own, f16 and bf16, CC >= 8.0: FlashAttention-2-style tensor-core kernel
//                   (flash_tc.cu): mma.sync m16n8k16 with fp32 accumulation, ldmatrix,
//                   cp.async double buffering of K/V, fp32 online softmax; one instantiation per
//                   head dim (40 runs zero-padded to 48 in shared memory). Every shape.
//                   oracle_twin = sdpa_cudnn.
//   flash_wgmma     own, f16 and bf16, CC 9.0 exactly (sm_90a): the Hopper kernel (flash_wgmma.cu):
//                   wgmma with TMA-fed, swizzled K/V stages, a producer warpgroup and two consumers,
//                   the softmax of one key tile overlapping P·V of the previous one. Every shape
//                   (its kernel covers every head dim of kHeadDims). oracle_twin = sdpa_cudnn.
//                   e4m3 and e5m2 at the shapes of cuDNN's FP8 twin: the same kernel on FP8 wgmma,
//                   with the twin's scales and output format, V transposed by a first kernel in the
//                   launch; the softmax's P is e4m3 under e5m2 too (flash_wgmma.cu says why).
//   flash_simt      own, f32, any CC: the same algorithm on the SIMT cores (flash_simt.cu).
//                   A subset of shapes (own_f32 in the table below): every SD1.5 shape, SDXL L2 and
//                   Flux, so that every head dim is covered; the large d = 64 shapes (SDXL L1, SD3)
//                   are left to the math path.
//   attention_math  cuBLAS, f32/f16/bf16, every shape: S = Q Kᵀ (strided-batched GEMM, fp32 S),
//                   own row softmax kernel (fp32, scale folded in), O = P V (strided-batched GEMM);
//                   S and P are allocated in make_problem. It launches that own softmax kernel,
//                   which is listed in kernels() so the image probe checks it too.
//   sdpa_cudnn      cuDNN, f16 and bf16, CC >= 8.0, every shape: cuDNN's fused flash attention, a
//                   graph of one SDPA node built with cudnn-frontend (sdpa_cudnn.hpp); the plan is
//                   built in make_problem, and a refusal becomes a LibraryError naming the step and
//                   the frontend's error. e4m3 and e5m2, CC 9.0 and up, at the shapes whose head
//                   dim is a multiple of 16 (all but d = 40): cuDNN's FP8 attention, Q, K, V and O
//                   (and P) in the format with per-tensor scales (attention_problem.hpp).
//
// Checks: at the check scale B and H are cut to 2 and Nq to 200 while d and Nk (the softmax
// length) are kept (AttentionDims::check_dims), against a float64 CPU reference; at the bench
// scale every output must be written and finite. Q is drawn from [-6, 6] and K, V from [-1, 1], so
// the logits have a standard deviation of about 2 and the softmax is far from flat (FP8: stored
// across the format's range, and these after the descales).
#include "kernels/attention/attention_operators.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/ops/shaped_operator.hpp"
#include "harness/ops/tensor.hpp"
#include "harness/util/cuda_raii.hpp"
#include "kernels/attention/attention_kernels.hpp"
#include "kernels/attention/attention_math.hpp"
#include "kernels/attention/attention_problem.hpp"
#include "kernels/attention/flash_wgmma.hpp"
#include "kernels/attention/sdpa_cudnn.hpp"
#include "kernels/common/sm90a_target.hpp"

namespace archbench::kernels::attention {
namespace {

using AttentionOperator = ShapedOperator<AttentionProblem, AttentionDims, AttentionLaunchFactory>;

OperatorSpec make_spec(const char* name, DType dtype, Impl impl, arch::ComputeCapability min_cc, const AttentionShape& s) {
  return shaped_spec("attention", name, dtype, impl, min_cc, s.dims, s.model);
}

AttentionLaunch flash_tc_launch(const AttentionDims& dims, DType dtype) {
  return [dims, dtype](const DeviceTensor& q, const DeviceTensor& k, const DeviceTensor& v, DeviceTensor& o,
                       cudaStream_t stream) {
    launch_flash_attention(dtype, q.buffer.get(), k.buffer.get(), v.buffer.get(), o.buffer.get(), dims, stream);
  };
}

// FP8: the format's per-tensor scales (attention_problem.hpp) in device memory, as the frameworks
// keep them, and the buffer the launch transposes V into; made with the problem.
struct FlashWgmmaFp8Buffers {
  DeviceTensor descale_q, descale_k, descale_v, scale_o;
  DeviceBuffer v_transposed;

  FlashWgmmaFp8Buffers(const AttentionDims& dims, DType format)
      : FlashWgmmaFp8Buffers(dims, fp8_attention_scales(format)) {}
  FlashWgmmaFp8Buffers(const AttentionDims& dims, const Fp8AttentionScales& s)
      : descale_q(upload(HostTensor{DType::F32, {s.descale_q}})),
        descale_k(upload(HostTensor{DType::F32, {s.descale_kv}})),
        descale_v(upload(HostTensor{DType::F32, {s.descale_kv}})),
        scale_o(upload(HostTensor{DType::F32, {s.scale_o}})),
        v_transposed(fp8_transposed_v_bytes(dims)) {}
  [[nodiscard]] FlashWgmmaFp8 view() const {
    return {descale_q.as<float>(), descale_k.as<float>(), descale_v.as<float>(), scale_o.as<float>(),
            v_transposed.get()};
  }
};

AttentionLaunch flash_simt_launch(const AttentionDims& dims, DType /*f32*/) {
  return [dims](const DeviceTensor& q, const DeviceTensor& k, const DeviceTensor& v, DeviceTensor& o,
                cudaStream_t stream) {
    launch_flash_attention_f32(q.as<float>(), k.as<float>(), v.as<float>(), o.as<float>(), dims, stream);
  };
}

}  // namespace

// The tensor maps hold the buffer addresses, which the factory does not see: they are encoded at a
// problem's first launch (a warm-up: the timer and graph replay launch before they measure or
// capture) and again only if the buffers change, which an AttentionProblem's never do. A timed or
// captured launch only enqueues.
AttentionLaunch flash_wgmma_launch(const AttentionDims& dims, DType dtype) {
  auto prepared = std::make_shared<std::optional<FlashWgmmaLaunch>>();
  std::shared_ptr<const FlashWgmmaFp8Buffers> fp8;
  if (is_fp8(dtype)) fp8 = std::make_shared<const FlashWgmmaFp8Buffers>(dims, dtype);
  return [dims, dtype, prepared, fp8](const DeviceTensor& q, const DeviceTensor& k, const DeviceTensor& v,
                                      DeviceTensor& o, cudaStream_t stream) {
    if (!*prepared || !(*prepared)->describes(q.buffer.get(), k.buffer.get(), v.buffer.get(), o.buffer.get())) {
      const FlashWgmmaFp8 fp8_view = fp8 ? fp8->view() : FlashWgmmaFp8{};
      *prepared = prepare_flash_attention_wgmma(dtype, q.buffer.get(), k.buffer.get(), v.buffer.get(),
                                                o.buffer.get(), dims, fp8 ? &fp8_view : nullptr);
    }
    launch_flash_attention_wgmma(**prepared, stream);
  };
}

const std::vector<AttentionShape>& attention_shapes() {
  static const std::vector<AttentionShape> shapes{
      {{2, 8, 4096, 4096, 40}, "SD1.5 L0 self-attention", true},
      {{2, 8, 4096, 77, 40}, "SD1.5 L0 cross-attention (77 text tokens)", true},
      {{2, 8, 1024, 1024, 80}, "SD1.5 L1 self-attention", true},
      {{2, 8, 256, 256, 160}, "SD1.5 L2 self-attention", true},
      {{2, 10, 4096, 4096, 64}, "SDXL L1 self-attention", false},
      {{2, 20, 1024, 1024, 64}, "SDXL L2 self-attention", true},
      {{1, 24, 4608, 4608, 128}, "Flux joint attention (1024 px)", true},
      {{2, 24, 4429, 4429, 64}, "SD3-medium joint attention (1024 px)", false},
  };
  return shapes;
}

void register_operators(Registry& r) {
  constexpr arch::ComputeCapability kAmpere{8, 0};
  constexpr arch::ComputeCapability kHopper{9, 0};
  constexpr arch::ComputeCapability kAnyCc{7, 5};
  for (const AttentionShape& shape : attention_shapes()) {
    const int d = shape.dims.D;
    for (DType dtype : {DType::F16, DType::BF16}) {
      OperatorSpec spec = make_spec("flash_tc", dtype, Impl::Own, kAmpere, shape);
      spec.oracle_twin = "sdpa_cudnn";
      const std::string kernel_name = "flash_attention_tc_" + std::string(dtype_name(dtype)) + "_d" + std::to_string(d);
      std::vector<KernelRef> kernels{{kernel_name, flash_attention_kernel(dtype, d)}};
      r.add(std::make_unique<AttentionOperator>(std::move(spec), shape.dims, flash_tc_launch, std::move(kernels)));
    }
    for (DType dtype : {DType::F16, DType::BF16}) {
      OperatorSpec spec = make_spec("flash_wgmma", dtype, Impl::Own, kHopper, shape);
      spec.oracle_twin = "sdpa_cudnn";
      const std::string kernel_name = "flash_attention_wgmma_" + std::string(dtype_name(dtype)) + "_d" + std::to_string(d);
      std::vector<KernelRef> kernels{{kernel_name, flash_attention_wgmma_kernel(dtype, d), sm90a_target()}};
      r.add(std::make_unique<AttentionOperator>(std::move(spec), shape.dims, flash_wgmma_launch, std::move(kernels)));
    }
    if (shape.own_f32) {
      r.add(std::make_unique<AttentionOperator>(
          make_spec("flash_simt", DType::F32, Impl::Own, kAnyCc, shape), shape.dims, flash_simt_launch,
          std::vector<KernelRef>{{"flash_attention_simt_f32_d" + std::to_string(d), flash_attention_f32_kernel(d)}}));
    }
    for (DType dtype : {DType::F16, DType::BF16}) {
      r.add(std::make_unique<AttentionOperator>(make_spec("sdpa_cudnn", dtype, Impl::CuDNN, kAmpere, shape), shape.dims,
                                                make_sdpa_cudnn_launch, std::vector<KernelRef>{}));
    }
    if (d % 16 == 0 && d <= 256) {  // the head dims cuDNN's FP8 attention takes on Hopper
      for (DType format : {DType::E4M3, DType::E5M2}) {
        OperatorSpec spec = make_spec("sdpa_cudnn", format, Impl::CuDNN, kHopper, shape);
        spec.min_cc_why = "cuDNN's FP8 attention";
        r.add(std::make_unique<AttentionOperator>(std::move(spec), shape.dims, make_sdpa_cudnn_launch,
                                                  std::vector<KernelRef>{}));
        OperatorSpec own = make_spec("flash_wgmma", format, Impl::Own, kHopper, shape);
        own.min_cc_why = "wgmma";
        own.oracle_twin = "sdpa_cudnn";
        std::vector<KernelRef> kernels{
            {"flash_attention_wgmma_" + std::string(dtype_name(format)) + "_d" + std::to_string(d),
             flash_attention_wgmma_kernel(format, d), sm90a_target()},
            {"transpose_v_fp8", fp8_transpose_v_kernel(), sm90a_target()}};
        r.add(std::make_unique<AttentionOperator>(std::move(own), shape.dims, flash_wgmma_launch, std::move(kernels)));
      }
    }
    for (DType dtype : {DType::F32, DType::F16, DType::BF16}) {
      const arch::ComputeCapability min_cc = dtype == DType::BF16 ? kAmpere : kAnyCc;
      r.add(std::make_unique<AttentionOperator>(
          make_spec("attention_math", dtype, Impl::CuBLAS, min_cc, shape), shape.dims, make_math_launch,
          std::vector<KernelRef>{{"softmax_rows_" + std::string(dtype_name(dtype)), softmax_rows_kernel(dtype)}}));
    }
  }
}

}  // namespace archbench::kernels::attention
