// The Hopper convolution in a build whose arch list has no 9.0 or 9.0a SASS target (CMakeLists.txt
// picks this file instead of conv_wgmma.cu): no kernel to point at, and a launch says why.
#include "kernels/conv/conv_wgmma.hpp"

#include "kernels/common/launch_config.hpp"
#include "kernels/common/sm90a_target.hpp"

namespace archbench::kernels::conv {

void launch_conv_wgmma_f16(const __half*, const __half*, __half*, float*, const ConvWgmmaPlan&, const ConvDims&,
                           cudaStream_t) {
  throw_without_sm90a("launch_conv_wgmma_f16");
}

void launch_conv_wgmma_bf16(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, float*, const ConvWgmmaPlan&,
                            const ConvDims&, cudaStream_t) {
  throw_without_sm90a("launch_conv_wgmma_bf16");
}

ConvWgmmaDevice conv_wgmma_device() { return {current_sm_count(), {}}; }

const void* conv_wgmma_f16_kernel(ConvWgmmaASource, int, int, ConvWgmmaKernel) { return nullptr; }
const void* conv_wgmma_bf16_kernel(ConvWgmmaASource, int, int, ConvWgmmaKernel) { return nullptr; }

}  // namespace archbench::kernels::conv
