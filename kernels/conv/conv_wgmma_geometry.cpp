#include "kernels/conv/conv_wgmma_geometry.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernels/conv/conv_plan.hpp"
#include "kernels/matmul/gemm_wgmma_tiling.hpp"

namespace archbench::kernels::conv {

std::string conv_wgmma_unsupported(const ConvDims& d, int pixels) {
  if (!d.valid()) return "not a valid convolution";
  if (d.C % kWgmmaChannelSlice != 0) return "C = " + std::to_string(d.C) + " is not a multiple of 64";
  if (d.K % 8 != 0) return "K = " + std::to_string(d.K) + " is not a multiple of 8";
  if (d.stride > 8) return "stride " + std::to_string(d.stride) + " is over 8";
  const int q = d.Q(), p = d.P();
  if (q > pixels || pixels % q != 0) {
    return "Q = " + std::to_string(q) + " does not divide " + std::to_string(pixels);
  }
  const int rows = pixels / q;
  if (p % rows != 0 && (rows % p != 0 || d.N % (rows / p) != 0)) {
    return std::to_string(pixels) + "-pixel tiles of " + std::to_string(rows) + " rows of " + std::to_string(q) +
           " do not tile " + std::to_string(d.N) + " images of " + std::to_string(p) + " rows";
  }
  if (q * d.stride > 256 || std::min(rows, p) * d.stride > 256) return "a tile spans over 256 input positions";
  return "";
}

ConvWgmmaTiles conv_wgmma_tiles(const ConvDims& d, int pixels) {
  if (const std::string why = conv_wgmma_unsupported(d, pixels); !why.empty()) {
    throw std::invalid_argument("conv_wgmma: " + d.str() + ": " + why);
  }
  const int q = d.Q(), p = d.P();
  const int rows = pixels / q;
  if (p % rows == 0) return {q, rows, 1};
  return {q, p, rows / p};
}

namespace {

// The CTAs of a launch that gives each tile of `pixels` x `width` and each of its parts a CTA of its
// own (split in the cluster, or 64-pixel tiles unsplit).
long long tile_ctas(const ConvDims& d, int pixels, int width, int splits) {
  return (d.gemm_m() + pixels - 1) / pixels * ((d.K + width - 1) / width) * splits;
}

// Where 64-pixel tiles pay (docs/kernel-choices.md, "conv_wgmma: 64-pixel tiles"): a short reduction
// that 128-pixel tiles cannot spread over one wave without split-K's workspace, or leave a tenth of the
// SMs idle. A long reduction keeps the 128-pixel tile: its two consumer warpgroups run more wgmma per
// SM than one does, and over many k-steps that outweighs the fill.
bool small_tiles_pay(const ConvDims& d, const ConvWgmmaPlan& plan, const ConvWgmmaDevice& device) {
  constexpr int kShortReduction = 48;  // k-steps of 64 channels; one 3x3 pass over 320 channels is 45
  if (d.gemm_k() / kWgmmaChannelSlice > kShortReduction) return false;
  if (!conv_wgmma_unsupported(d, kWgmmaSmallTilePixels).empty()) return false;
  if (plan.splits > 1) return plan.reduction == matmul::SplitReduction::Workspace;
  const long long ctas = matmul::wgmma_cluster_tiles(static_cast<int>(d.gemm_m()), d.K, plan.width) *
                         matmul::kWgmmaCluster;
  return ctas * 10 < static_cast<long long>(device.sms) * 9;
}

// The 64-pixel plan: of the widths and part counts whose CTAs fit one wave (one per SM without a split,
// the device's clusters of that many CTAs with one), the least k-steps x width per CTA; a tie goes to
// fewer parts, then to the wider tile. Where `fallback` splits through the workspace, only parts in
// the cluster replace it: unsplit 64-pixel tiles lost to that workspace at stride 2 (21.6-23.8 against
// 20.3-20.6 µs on an H100). `fallback` where nothing fits.
ConvWgmmaPlan small_tile_plan(const ConvDims& d, const ConvWgmmaDevice& device, const ConvWgmmaPlan& fallback) {
  const auto steps = static_cast<int>(d.gemm_k() / kWgmmaChannelSlice);
  ConvWgmmaPlan best = fallback;
  long long best_cost = -1;
  for (int splits = fallback.splits > 1 ? 2 : 1; splits <= matmul::kWgmmaMaxClusterSplits; ++splits) {
    const int per_part = (steps + splits - 1) / splits;
    if (splits > 1 && (per_part < kMinKTilesPerSplit || (steps + per_part - 1) / per_part != splits)) continue;
    const long long fit = splits == 1 ? device.sms : device.cluster_ctas[static_cast<size_t>(splits)];
    for (const int width : matmul::kConvWgmmaTileWidths) {  // widest first: a tie keeps the wider
      const long long ctas = tile_ctas(d, kWgmmaSmallTilePixels, width, splits);
      const long long cost = static_cast<long long>(per_part) * width;
      if (ctas > fit || (best_cost >= 0 && cost >= best_cost)) continue;
      best = {kWgmmaSmallTilePixels, width, splits,
              splits > 1 ? matmul::SplitReduction::InCluster : matmul::SplitReduction::Workspace};
      best_cost = cost;
    }
  }
  return best;
}

}  // namespace

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
    // One CTA per tile and part: no pair shares a tile.
    if (tile_ctas(d, plan.pixels, plan.width, plan.splits) <= fit) {
      plan.reduction = matmul::SplitReduction::InCluster;
      for (auto w = widths.rbegin(); w != widths.rend(); ++w) {  // narrowest first
        if (tile_ctas(d, plan.pixels, *w, plan.splits) <= fit) {
          plan.width = *w;
          break;
        }
      }
    }
  }
  if (small_tiles_pay(d, plan, device)) plan = small_tile_plan(d, device, plan);
  return plan;
}

ConvWgmmaASource conv_wgmma_a_source(const ConvDims& d) {
  const bool pixel_for_pixel = d.R == 1 && d.S == 1 && d.stride == 1 && d.pad == 0;
  return pixel_for_pixel ? ConvWgmmaASource::Matrix : ConvWgmmaASource::Im2col;
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
