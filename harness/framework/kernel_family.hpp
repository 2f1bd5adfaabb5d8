// Which backend a framework op ran, from the names of the kernels it launched (torch.profiler):
// one table of kernel-name families, first match wins (docs/framework.md, "What the probe measures").
#pragma once

#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench::framework {

enum class KernelFamily {
  CudnnSdpa,         // cuDNN's fused attention (cudnn_generated_fort_native_sdpa_*, sm90_flash_*)
  FlashAttention2,   // PyTorch's FA2 (pytorch_flash::flash_fwd_kernel)
  FlashAttention3,   // FA3 (flash::...Sm90 / hopper)
  MemEfficient,      // xformers' CUTLASS kernels in PyTorch (fmha_cutlassF_*, AttentionKernel)
  SageAttention,     // SageAttention's quantized kernels (qk_int_sv_f8_attn_kernel, qk_int_sv_f16_...)
  CublasLt,          // cuBLASLt's nvjet kernels
  Cutlass,           // CUTLASS GEMMs that cuBLAS launches (cutlass_80_*, sm90_xmma_gemm_*)
  CublasGemm,        // cuBLAS's own GEMMs (ampere_*gemm*, sm80_xmma_gemm_*, gemv)
  CudnnConv,         // cuDNN's convolution engines (xmma_fprop, implicit_convolve, sm90_xmma_fprop_*)
  LayoutConversion,  // NCHW <-> NHWC copies cuDNN or the framework inserts (nchwToNhwc, nhwcToNchw)
  Triton,            // kernels Triton compiled (triton_*)
  AtenSoftmax,       // the math attention's softmax
  AtenNorm,          // ATen's norm kernels (group_norm, layer_norm, rms_norm)
  AtenElementwise,   // ATen's vectorized elementwise, copies, fills, reductions
  Other,
};
inline constexpr auto kKernelFamilies = enum_names<KernelFamily>({
    {KernelFamily::CudnnSdpa, "cudnn-sdpa"},
    {KernelFamily::FlashAttention2, "flash-attention-2"},
    {KernelFamily::FlashAttention3, "flash-attention-3"},
    {KernelFamily::MemEfficient, "mem-efficient"},
    {KernelFamily::SageAttention, "sageattention"},
    {KernelFamily::CublasLt, "cublaslt-nvjet"},
    {KernelFamily::Cutlass, "cutlass"},
    {KernelFamily::CublasGemm, "cublas-gemm"},
    {KernelFamily::CudnnConv, "cudnn-conv"},
    {KernelFamily::LayoutConversion, "layout-conversion"},
    {KernelFamily::Triton, "triton"},
    {KernelFamily::AtenSoftmax, "aten-softmax"},
    {KernelFamily::AtenNorm, "aten-norm"},
    {KernelFamily::AtenElementwise, "aten-elementwise"},
    {KernelFamily::Other, "other"},
});
[[nodiscard]] constexpr std::string_view family_name(KernelFamily f) { return name_of(kKernelFamilies, f); }

// The family of one kernel, by its (demangled, as the profiler prints it) name.
[[nodiscard]] KernelFamily kernel_family(std::string_view kernel_name);

}  // namespace archbench::framework
