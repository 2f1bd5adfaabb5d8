// The wgmma flash attention in a build whose arch list has no 9.0 or 9.0a SASS target (CMakeLists.txt
// picks this file instead of flash_wgmma.cu): no kernel to point at, and a launch says why.
#include "kernels/attention/flash_wgmma.hpp"

#include "kernels/common/sm90a_target.hpp"

namespace archbench::kernels::attention {

FlashWgmmaLaunch prepare_flash_attention_wgmma(DType, const void*, const void*, const void*, void*,
                                               const AttentionDims&, const FlashWgmmaFp8*) {
  throw_without_sm90a("prepare_flash_attention_wgmma");
}

void launch_flash_attention_wgmma(const FlashWgmmaLaunch&, cudaStream_t) {
  throw_without_sm90a("launch_flash_attention_wgmma");
}

const void* flash_attention_wgmma_kernel(DType, int) { return nullptr; }

const void* fp8_transpose_v_kernel() { return nullptr; }

}  // namespace archbench::kernels::attention
