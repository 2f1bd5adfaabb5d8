// The Hopper convolution: an implicit GEMM on wgmma fed by the copy engine (TMA), for sm_90a.
// NHWC f16 or bf16 input x[N][H][W][C], KRSC filter w[K][R][S][C], NHWC output y[N][P][Q][K],
// fp32 accumulation, the output rounded to the input type; the shapes conv_wgmma_geometry.hpp
// accepts (1x1 convolutions included: one tap, the plain GEMM of pixels by channels).
//
// Its code exists only for sm_90a, as gemm_wgmma's: a build whose arch list has no 9.0 or 9.0a
// gets conv_wgmma_absent.cpp, whose kernel addresses are null and whose launches throw, so the
// operator exists and says why it has no image.
//
// Plain C++17: includable from host code compiled by g++ and from .cu files.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_wgmma_geometry.hpp"

namespace archbench::kernels::conv {

// Enqueue on `stream`, never synchronize; std::invalid_argument for a shape the tiling does not
// take or misaligned pointers, std::runtime_error for a failing CUDA call or a build without sm_90a.
// `plan` (conv_wgmma_plan): the tile width, and with splits > 1 split-K: the parts added up in the
// cluster, or their fp32 sums in `workspace` (plan.workspace_floats), then added up and rounded into
// y by a second kernel (conv_splitk_reduce).
void launch_conv_wgmma_f16(const __half* x, const __half* w, __half* y, float* workspace, const ConvWgmmaPlan& plan,
                           const ConvDims& d, cudaStream_t stream);
void launch_conv_wgmma_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, float* workspace,
                            const ConvWgmmaPlan& plan, const ConvDims& d, cudaStream_t stream);

// The current device as conv_wgmma_plan needs it (its SMs; without sm_90a, no cluster-split kernel).
[[nodiscard]] ConvWgmmaDevice conv_wgmma_device();

// The __global__ functions a launch may pick, one per A source, tile height, tile width
// (matmul::kConvWgmmaTileWidths) and kind; null when this build has no sm_90a target.
enum class ConvWgmmaKernel {
  Whole,              // unsplit: the 16-bit result
  WorkspacePartials,  // split-K's fp32 partials, for conv_splitk_reduce
  ClusterSplit,       // split-K added up in the cluster: the 16-bit result
};
// `source`: where the tiles of A come from (conv_wgmma_a_source of the shape); `pixels`: the tile's output
// pixels, kWgmmaTilePixels or kWgmmaSmallTilePixels.
[[nodiscard]] const void* conv_wgmma_f16_kernel(ConvWgmmaASource source, int pixels, int tile_n, ConvWgmmaKernel kind);
[[nodiscard]] const void* conv_wgmma_bf16_kernel(ConvWgmmaASource source, int pixels, int tile_n, ConvWgmmaKernel kind);

}  // namespace archbench::kernels::conv
