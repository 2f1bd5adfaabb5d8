#include "kernels/conv/conv_wgmma_geometry.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernels/matmul/gemm_wgmma_tiling.hpp"

namespace archbench::kernels::conv {

std::string conv_wgmma_unsupported(const ConvDims& d) {
  if (!d.valid()) return "not a valid convolution";
  if (d.C % kWgmmaChannelSlice != 0) return "C = " + std::to_string(d.C) + " is not a multiple of 64";
  if (d.K % 8 != 0) return "K = " + std::to_string(d.K) + " is not a multiple of 8";
  if (d.stride > 8) return "stride " + std::to_string(d.stride) + " is over 8";
  const int q = d.Q(), p = d.P();
  if (q > kWgmmaTilePixels || kWgmmaTilePixels % q != 0) return "Q = " + std::to_string(q) + " does not divide 128";
  const int rows = kWgmmaTilePixels / q;
  if (p % rows != 0 && (rows % p != 0 || d.N % (rows / p) != 0)) {
    return "128-pixel tiles of " + std::to_string(rows) + " rows of " + std::to_string(q) + " do not tile " +
           std::to_string(d.N) + " images of " + std::to_string(p) + " rows";
  }
  if (q * d.stride > 256 || std::min(rows, p) * d.stride > 256) return "a tile spans over 256 input positions";
  return "";
}

ConvWgmmaTiles conv_wgmma_tiles(const ConvDims& d) {
  if (const std::string why = conv_wgmma_unsupported(d); !why.empty()) {
    throw std::invalid_argument("conv_wgmma: " + d.str() + ": " + why);
  }
  const int q = d.Q(), p = d.P();
  const int rows = kWgmmaTilePixels / q;
  if (p % rows == 0) return {q, rows, 1};
  return {q, p, rows / p};
}

int conv_wgmma_splits(const ConvDims& d, int sms) {
  (void)conv_wgmma_tiles(d);  // throws for a shape the kernel does not take
  // At least 9 k-steps a part: on an H100 the 1x1 convolution (15 k-steps) lost in 3 parts of 5
  // (15.7 -> 25.4 us, the partials' traffic outweighing the fill), stride 2 (45) gained in 5 of 9.
  constexpr int kMaxSplits = 16, kMinStepsPerSplit = 9;
  const auto m = static_cast<int>(d.gemm_m());
  const int clusters = std::max(sms / matmul::kWgmmaCluster, 1);
  const int width = matmul::wgmma_tile_width(m, d.K, clusters);
  const int pixel_pairs = (m + 2 * kWgmmaTilePixels - 1) / (2 * kWgmmaTilePixels);
  const int ctas = pixel_pairs * matmul::kWgmmaCluster * ((d.K + width - 1) / width);
  if (2 * ctas > sms) return 1;
  const auto steps = static_cast<int>(d.gemm_k() / kWgmmaChannelSlice);
  const int want = std::min({(sms + ctas - 1) / ctas, kMaxSplits, steps / kMinStepsPerSplit});
  if (want <= 1) return 1;
  const int chunk = (steps + want - 1) / want;
  return (steps + chunk - 1) / chunk;
}

ConvDims conv_wgmma_check_dims(const ConvDims& bench) {
  ConvDims c = bench;
  constexpr int kP = 8, kQ = 16;
  c.N = std::min(bench.N, 2);
  c.H = (kP - 1) * bench.stride + bench.R - 2 * bench.pad;
  c.W = (kQ - 1) * bench.stride + bench.S - 2 * bench.pad;
  c.K = std::min(bench.K, 200);
  return c;
}

}  // namespace archbench::kernels::conv
