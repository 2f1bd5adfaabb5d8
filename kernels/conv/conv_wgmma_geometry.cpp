#include "kernels/conv/conv_wgmma_geometry.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernels/conv/conv_plan.hpp"
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

ConvWgmmaPlan conv_wgmma_plan(const ConvDims& d, const ConvWgmmaDevice& device) {
  const int sms = device.sms;
  (void)conv_wgmma_tiles(d);  // throws for a shape the kernel does not take
  // One CTA per SM (a CTA takes most of an SM's shared memory); the launch's grid, as wgmma_gemm
  // sizes it: cluster tiles of the chosen width, two CTAs each.
  const auto m = static_cast<int>(d.gemm_m());
  const int clusters = std::max(sms / matmul::kWgmmaCluster, 1);
  const auto& widths = matmul::kConvWgmmaTileWidths;  // widest first
  constexpr int kWidestNarrow = 128;  // 128 and 96: only where no split is planned
  const auto wide =
      static_cast<size_t>(std::count_if(widths.begin(), widths.end(), [](int w) { return w > kWidestNarrow; }));
  ConvWgmmaPlan plan;
  plan.width = matmul::wgmma_tile_width(m, d.K, clusters, widths.data(), wide);
  const long long ctas = matmul::wgmma_cluster_tiles(m, d.K, plan.width) * matmul::kWgmmaCluster;
  const auto steps = static_cast<int>(d.gemm_k() / kWgmmaChannelSlice);
  plan.splits = plan_split_k(ctas, steps, sms, kMinKTilesPerSplit).splits;
  if (plan.splits == 1) plan.width = matmul::wgmma_tile_width(m, d.K, clusters, widths.data(), widths.size());
  // In the cluster where the parts at the planned width fit one wave of clusters of their number;
  // then at the narrowest width that still fits.
  if (plan.splits > 1 && plan.splits <= matmul::kWgmmaMaxClusterSplits) {
    const long long fit = device.cluster_ctas[static_cast<size_t>(plan.splits)];
    const auto cluster_ctas = [&](int width) {  // one CTA per tile and part: no pair shares a tile
      return (m + kWgmmaTilePixels - 1) / kWgmmaTilePixels * ((d.K + width - 1) / width) * plan.splits;
    };
    if (cluster_ctas(plan.width) <= fit) {
      plan.reduction = matmul::SplitReduction::InCluster;
      for (auto w = widths.rbegin(); w != widths.rend(); ++w) {  // narrowest first
        if (cluster_ctas(*w) <= fit) {
          plan.width = *w;
          break;
        }
      }
    }
  }
  return plan;
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
