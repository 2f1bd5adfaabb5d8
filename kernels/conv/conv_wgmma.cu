// The Hopper convolution (conv_wgmma.hpp): the wgmma GEMM main loop of kernels/common/wgmma_gemm.cuh
// with A the implicit im2col matrix of the NHWC input. Compiled for sm_90a only (CMakeLists.txt).
//
// GEMM view: row m = (n, p, q) of A is output pixel m, column j = (r, s, c) its input value
// x[n][p*stride + r - pad][q*stride + s - pad][c]; B is the KRSC filter as it lies in memory
// (row k, contiguous j), C the NHWC output. A k-step is one filter tap (r, s) and 64 channels
// (C is a multiple of 64, so no step straddles two taps). A tile of 128 output pixels is whole
// output rows (conv_wgmma_geometry.hpp), so its A rows are one 4-D box of the input (c, w, h, n)
// taken at the stride: the copy engine lays it out in shared memory as 128 rows of 128 bytes with
// the 128-byte swizzle, exactly as the GEMM's 2-D box of A, and zero-fills positions outside the
// input, which is the padding. Nothing else of the GEMM changes: B, the wgmma descriptors, the
// cluster multicast and the epilogue's stores of C see a plain [N*P*Q, K] GEMM. A 1x1 convolution at
// stride 1 without padding reads its A as what it is, the [N*H*W, C] input matrix, in 2-D boxes
// (MatrixA; conv_wgmma_a_source says which shapes): the same tiles in shared memory, copied faster.
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/conv/conv_wgmma.hpp"
#include "kernels/conv/conv_wgmma_geometry.hpp"
#include "kernels/common/launch_config.hpp"
#include "kernels/common/wgmma_gemm.cuh"
#include "kernels/matmul/gemm_launch_checks.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace archbench::kernels::conv {
namespace {

// Where k-step k of pixel tile tm (Pixels output pixels: 128, or 64 for one consumer warpgroup) lies
// in the input (all values fixed per launch).
template <int Pixels>
struct ImplicitA {
  static constexpr auto& kTileWidths = matmul::kConvWgmmaTileWidths;
  static constexpr bool kSplitsInCluster = true;  // wgmma_gemm instantiates its cluster-split kernels
  static constexpr int kTileRows = Pixels;
  int C, S, P, Q, stride, pad;
  __device__ __forceinline__ void load(uint32_t dst, const CUtensorMap* map, uint32_t bar, int k, int tm) const {
    const int j = k * kWgmmaChannelSlice;  // first column of the step: tap (r, s), channel c0
    const int tap = j / C;
    const int c0 = j - tap * C;
    const int r = tap / S, s = tap - (tap / S) * S;
    const int m0 = tm * Pixels;  // first pixel of the tile: image n0, row p0, column 0
    const int n0 = m0 / (P * Q);
    const int p0 = (m0 - n0 * P * Q) / Q;
    tma::load_4d(dst, map, bar, c0, s - pad, p0 * stride + r - pad, n0);
  }
};

// A 1x1 convolution at stride 1 without padding (conv_wgmma_a_source): A is the [N*H*W, C] input
// matrix, read as the GEMM reads its A, in 2-D boxes of Pixels rows x 64 channels.
template <typename T, int Pixels>
using MatrixA = wgmma_gemm::MatrixA<T, matmul::kConvWgmmaTileWidths, Pixels, /*SplitsInCluster=*/true>;

// The GEMM over A (either source) as the plan says: unsplit or split in the cluster in one launch; split
// through the workspace, then conv_splitk_reduce.
template <typename T, typename ASource>
void launch_gemm(const char* fn, const CUtensorMap& map_a, const ASource& a, const T* w, T* y, float* workspace,
                 const ConvWgmmaPlan& plan, const ConvDims& d, cudaStream_t stream) {
  const auto m = static_cast<int>(d.gemm_m()), k = static_cast<int>(d.gemm_k());
  if (plan.splits <= 1 || plan.reduction == matmul::SplitReduction::InCluster) {
    wgmma_gemm::launch<T, T>(map_a, a, w, y, m, d.K, k, nullptr, nullptr, stream, plan.splits, plan.width,
                             plan.reduction);
    return;
  }
  if (workspace == nullptr) throw std::invalid_argument(std::string(fn) + ": split-K needs its workspace");
  wgmma_gemm::launch<T, float>(map_a, a, w, workspace, m, d.K, k, nullptr, nullptr, stream, plan.splits, plan.width);
  launch_conv_splitk_reduce(std::is_same_v<T, __half> ? DType::F16 : DType::BF16, workspace, y,
                            static_cast<size_t>(m) * static_cast<size_t>(d.K), plan.splits, stream);
}

template <typename T, int Pixels>
void launch_tiles(const char* fn, const T* x, const T* w, T* y, float* workspace, const ConvWgmmaPlan& plan,
                  const ConvDims& d, cudaStream_t stream) {
  const ConvWgmmaTiles tiles = conv_wgmma_tiles(d, Pixels);  // throws for shapes the tiling does not take
  const long long m = d.gemm_m(), k = d.gemm_k();
  if (m > (1LL << 31) - 1 || k > (1LL << 31) - 1) {
    throw std::invalid_argument(std::string(fn) + ": " + d.str() + ": N*P*Q or R*S*C is over 2^31 - 1");
  }
  // The implicit GEMM's operands answer to the GEMM's rules (alignment, multiples, grid).
  matmul::validate_gemm_launch(fn, matmul::GemmTiling{Pixels, matmul::kConvWgmmaTileWidths.back(),
                                                      kWgmmaChannelSlice, 8},
                               x, w, y, static_cast<int>(m), d.K, static_cast<int>(k));
  if (conv_wgmma_a_source(d) == ConvWgmmaASource::Matrix) {
    const CUtensorMap map_x = matrix_tensor_map(x, m, d.C, Pixels, kWgmmaChannelSlice, fn);
    launch_gemm(fn, map_x, MatrixA<T, Pixels>{}, w, y, workspace, plan, d, stream);
    return;
  }
  const auto e = static_cast<cuuint64_t>(sizeof(T));
  const cuuint64_t dims[4] = {static_cast<cuuint64_t>(d.C), static_cast<cuuint64_t>(d.W),
                              static_cast<cuuint64_t>(d.H), static_cast<cuuint64_t>(d.N)};
  const cuuint64_t strides[3] = {dims[0] * e, dims[0] * dims[1] * e, dims[0] * dims[1] * dims[2] * e};
  const auto st = static_cast<cuuint32_t>(d.stride);
  const cuuint32_t box[4] = {static_cast<cuuint32_t>(kWgmmaChannelSlice), static_cast<cuuint32_t>(tiles.box_q) * st,
                             static_cast<cuuint32_t>(tiles.box_p) * st, static_cast<cuuint32_t>(tiles.box_n)};
  const cuuint32_t element_strides[4] = {1, st, st, 1};
  const CUtensorMap map_x = swizzled_tensor_map(tensor_map_data_type<T>(), x, 4, dims, strides, box, fn,
                                                CU_TENSOR_MAP_SWIZZLE_128B, element_strides);
  launch_gemm(fn, map_x, ImplicitA<Pixels>{d.C, d.S, d.P(), d.Q(), d.stride, d.pad}, w, y, workspace, plan, d, stream);
}

// f(std::integral_constant<int, P>{}) for the tile height P == `pixels` that the kernels are built for.
template <typename F>
decltype(auto) with_tile_pixels(int pixels, const char* fn, F&& f) {
  if (pixels == kWgmmaSmallTilePixels) return f(std::integral_constant<int, kWgmmaSmallTilePixels>{});
  if (pixels == kWgmmaTilePixels) return f(std::integral_constant<int, kWgmmaTilePixels>{});
  throw std::invalid_argument(std::string(fn) + ": no tile of " + std::to_string(pixels) + " pixels");
}

template <typename T>
void launch(const char* fn, const T* x, const T* w, T* y, float* workspace, const ConvWgmmaPlan& plan,
            const ConvDims& d, cudaStream_t stream) {
  with_tile_pixels(plan.pixels, fn, [&](auto pixels) {
    launch_tiles<T, decltype(pixels)::value>(fn, x, w, y, workspace, plan, d, stream);
  });
}

}  // namespace

ConvWgmmaDevice conv_wgmma_device() {
  ConvWgmmaDevice device;
  device.sms = current_sm_count();
  // Any width and tile height: one CTA of each fills an SM (its shared memory, or a 64-pixel tile's
  // 256 threads at 232 registers), so a cluster of S CTAs takes S SMs of one GPC whichever the plan.
  constexpr int kWidth = 160;
  using A = ImplicitA<kWgmmaTilePixels>;
  for (int s = 2; s <= matmul::kWgmmaMaxClusterSplits; ++s) {
    device.cluster_ctas[static_cast<size_t>(s)] = wgmma_gemm::resident_split_ctas<__half, __half, A>(kWidth, s);
  }
  return device;
}

void launch_conv_wgmma_f16(const __half* x, const __half* w, __half* y, float* workspace, const ConvWgmmaPlan& plan,
                           const ConvDims& d, cudaStream_t stream) {
  launch("launch_conv_wgmma_f16", x, w, y, workspace, plan, d, stream);
}

void launch_conv_wgmma_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, float* workspace,
                            const ConvWgmmaPlan& plan, const ConvDims& d, cudaStream_t stream) {
  launch("launch_conv_wgmma_bf16", x, w, y, workspace, plan, d, stream);
}

namespace {
template <typename T, typename A>
const void* kernel_of(int tile_n, ConvWgmmaKernel kind) {
  switch (kind) {
    case ConvWgmmaKernel::Whole: return wgmma_gemm::kernel_for<T, T, A>(tile_n);
    case ConvWgmmaKernel::WorkspacePartials: return wgmma_gemm::kernel_for<T, float, A>(tile_n);
    case ConvWgmmaKernel::ClusterSplit: return wgmma_gemm::kernel_for<T, T, A, true>(tile_n);
  }
  return nullptr;
}
template <typename T>
const void* kernel_of(ConvWgmmaASource source, int pixels, int tile_n, ConvWgmmaKernel kind) {
  return with_tile_pixels(pixels, "conv_wgmma", [&](auto p) {
    constexpr int kPixels = decltype(p)::value;
    return source == ConvWgmmaASource::Matrix ? kernel_of<T, MatrixA<T, kPixels>>(tile_n, kind)
                                              : kernel_of<T, ImplicitA<kPixels>>(tile_n, kind);
  });
}
}  // namespace

const void* conv_wgmma_f16_kernel(ConvWgmmaASource source, int pixels, int tile_n, ConvWgmmaKernel kind) {
  return kernel_of<__half>(source, pixels, tile_n, kind);
}
const void* conv_wgmma_bf16_kernel(ConvWgmmaASource source, int pixels, int tile_n, ConvWgmmaKernel kind) {
  return kernel_of<__nv_bfloat16>(source, pixels, tile_n, kind);
}

}  // namespace archbench::kernels::conv
