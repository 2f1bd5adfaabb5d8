#include "kernels/conv/conv_reference.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/util/float64_dot.hpp"
#include "harness/util/parallel_for.hpp"

namespace archbench::kernels::conv {
namespace {

// The convolution with every tensor channels-last (x NHWC, w KRSC, y NPQK): the dot products run
// over contiguous channels of both operands. Output pixels go in blocks of kPixelBlock, spread over
// the host's cores: each filter row (one tap of one output channel) is read once per block rather
// than once per pixel, so the filter (36 MB in float64 at C2560, K200) is not streamed from memory
// for every pixel. Each output is summed tap by tap in the same order on any core count.
constexpr size_t kPixelBlock = 8;

std::vector<double> reference_nhwc(const std::vector<double>& x, const std::vector<double>& w, const ConvDims& d) {
  const int P = d.P();
  const int Q = d.Q();
  const auto C = static_cast<size_t>(d.C);
  const auto K = static_cast<size_t>(d.K);
  const auto pixels = static_cast<size_t>(d.gemm_m());
  std::vector<double> y(d.output_numel());
  parallel_chunks(pixels, kPixelBlock, [&](size_t, size_t begin, size_t end) {
    for (size_t k = 0; k < K; ++k) {
      double sum[kPixelBlock] = {};
      for (int r = 0; r < d.R; ++r) {
        for (int s = 0; s < d.S; ++s) {
          const double* wp = &w[filter_offset(ConvLayout::NHWC, static_cast<int>(k), r, s, 0, d.R, d.S, d.C)];
          for (size_t m = begin; m < end; ++m) {
            const int n = static_cast<int>(m / (static_cast<size_t>(P) * Q));
            const int h = static_cast<int>(m / Q % P) * d.stride - d.pad + r;
            const int wi = static_cast<int>(m % Q) * d.stride - d.pad + s;
            if (h < 0 || h >= d.H || wi < 0 || wi >= d.W) continue;
            sum[m - begin] += dot(&x[activation_offset(ConvLayout::NHWC, n, h, wi, 0, d.H, d.W, d.C)], wp, C);
          }
        }
      }
      for (size_t m = begin; m < end; ++m) y[m * K + k] = sum[m - begin];
    }
  });
  return y;
}

// Copies a dense tensor between [A][B][C][D] (channels last) and [A][D][B][C] (channels first),
// in the direction `to_first` says.
std::vector<double> move_channels(const std::vector<double>& t, int a, int b, int c, int d, bool to_first,
                                  const char* who) {
  const size_t B = static_cast<size_t>(b), C = static_cast<size_t>(c), D = static_cast<size_t>(d);
  if (t.size() != static_cast<size_t>(a) * B * C * D) throw std::invalid_argument(std::string(who) + ": size mismatch");
  std::vector<double> out(t.size());
  for (size_t i = 0; i < static_cast<size_t>(a); ++i) {
    for (size_t j = 0; j < B; ++j) {
      for (size_t k = 0; k < C; ++k) {
        for (size_t l = 0; l < D; ++l) {
          const size_t last = ((i * B + j) * C + k) * D + l;
          const size_t first = ((i * D + l) * B + j) * C + k;
          if (to_first) {
            out[first] = t[last];
          } else {
            out[last] = t[first];
          }
        }
      }
    }
  }
  return out;
}

}  // namespace

std::vector<double> channels_last_to_first(const std::vector<double>& t, int a, int b, int c, int d) {
  return move_channels(t, a, b, c, d, true, "channels_last_to_first");
}

std::vector<double> channels_first_to_last(const std::vector<double>& t, int a, int b, int c, int d) {
  return move_channels(t, a, b, c, d, false, "channels_first_to_last");
}

std::vector<double> reference_conv(const std::vector<double>& x, const std::vector<double>& w, const ConvDims& d,
                                   ConvLayout layout) {
  if (!d.valid()) throw std::invalid_argument("reference_conv: invalid shape " + d.str());
  if (x.size() != d.input_numel() || w.size() != d.filter_numel()) {
    throw std::invalid_argument("reference_conv: input or filter size does not match " + d.str());
  }
  if (layout == ConvLayout::NHWC) return reference_nhwc(x, w, d);
  const auto y = reference_nhwc(channels_first_to_last(x, d.N, d.H, d.W, d.C),
                                channels_first_to_last(w, d.K, d.R, d.S, d.C), d);
  return channels_last_to_first(y, d.N, d.P(), d.Q(), d.K);
}

}  // namespace archbench::kernels::conv
