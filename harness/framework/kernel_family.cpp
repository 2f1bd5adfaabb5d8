#include "harness/framework/kernel_family.hpp"

#include <array>

namespace archbench::framework {
namespace {

struct FamilyRule {
  std::string_view contains;
  KernelFamily family;
};

// First match wins, so the more specific names come first (a layout conversion inside a cuDNN
// name is a conversion; FA3's namespace holds "flash" too).
constexpr std::array kRules{
    FamilyRule{"nchwToNhwc", KernelFamily::LayoutConversion},
    FamilyRule{"nhwcToNchw", KernelFamily::LayoutConversion},
    FamilyRule{"nchw2nhwc", KernelFamily::LayoutConversion},
    FamilyRule{"nhwc2nchw", KernelFamily::LayoutConversion},
    FamilyRule{"AddPadding", KernelFamily::LayoutConversion},
    FamilyRule{"cudnn_generated_fort_native_sdpa", KernelFamily::CudnnSdpa},
    FamilyRule{"sdpa", KernelFamily::CudnnSdpa},
    FamilyRule{"pytorch_flash::", KernelFamily::FlashAttention2},
    FamilyRule{"flash_fwd", KernelFamily::FlashAttention2},
    FamilyRule{"FlashAttnFwdSm90", KernelFamily::FlashAttention3},
    FamilyRule{"flash::", KernelFamily::FlashAttention3},
    FamilyRule{"fmha_cutlass", KernelFamily::MemEfficient},
    FamilyRule{"AttentionKernel", KernelFamily::MemEfficient},
    FamilyRule{"qk_int_sv_", KernelFamily::SageAttention},
    FamilyRule{"nvjet", KernelFamily::CublasLt},
    FamilyRule{"fprop", KernelFamily::CudnnConv},
    FamilyRule{"dgrad", KernelFamily::CudnnConv},
    FamilyRule{"wgrad", KernelFamily::CudnnConv},
    FamilyRule{"convolve", KernelFamily::CudnnConv},
    FamilyRule{"conv2d", KernelFamily::CudnnConv},
    FamilyRule{"cudnn", KernelFamily::CudnnConv},
    FamilyRule{"cutlass", KernelFamily::Cutlass},
    FamilyRule{"gemm", KernelFamily::CublasGemm},
    FamilyRule{"gemv", KernelFamily::CublasGemm},
    FamilyRule{"triton_", KernelFamily::Triton},
    FamilyRule{"softmax", KernelFamily::AtenSoftmax},
    FamilyRule{"Softmax", KernelFamily::AtenSoftmax},
    FamilyRule{"SoftMax", KernelFamily::AtenSoftmax},
    FamilyRule{"group_norm", KernelFamily::AtenNorm},
    FamilyRule{"GroupNorm", KernelFamily::AtenNorm},
    FamilyRule{"layer_norm", KernelFamily::AtenNorm},
    FamilyRule{"LayerNorm", KernelFamily::AtenNorm},
    FamilyRule{"rms_norm", KernelFamily::AtenNorm},
    FamilyRule{"RowwiseMoments", KernelFamily::AtenNorm},
    FamilyRule{"at::native::", KernelFamily::AtenElementwise},
    FamilyRule{"elementwise", KernelFamily::AtenElementwise},
};

}  // namespace

KernelFamily kernel_family(std::string_view kernel_name) {
  for (const auto& r : kRules) {
    if (kernel_name.find(r.contains) != std::string_view::npos) return r.family;
  }
  return KernelFamily::Other;
}

}  // namespace archbench::framework
