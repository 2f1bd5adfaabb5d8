#include "kernels/conv/conv_reference.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/util/parallel_for.hpp"

namespace archbench::kernels::conv {
namespace {

// The convolution with every tensor channels-last (x NHWC, w KRSC, y NPQK): the innermost
// loop runs over contiguous channels of both operands. Output pixels are spread over the host's
// cores; each is summed in the same order on any core count.
std::vector<double> reference_nhwc(const std::vector<double>& x, const std::vector<double>& w, const ConvDims& d) {
  const int P = d.P();
  const int Q = d.Q();
  const auto pixels = static_cast<size_t>(d.gemm_m());
  std::vector<double> y(d.output_numel());
  parallel_rows(pixels, [&](size_t m) {
    const int n = static_cast<int>(m / (static_cast<size_t>(P) * Q));
    const int p = static_cast<int>(m / Q % P);
    const int q = static_cast<int>(m % Q);
    for (int k = 0; k < d.K; ++k) {
      double sum = 0;
      for (int r = 0; r < d.R; ++r) {
        const int h = p * d.stride - d.pad + r;
        if (h < 0 || h >= d.H) continue;
        for (int s = 0; s < d.S; ++s) {
          const int wi = q * d.stride - d.pad + s;
          if (wi < 0 || wi >= d.W) continue;
          const double* xp = &x[activation_offset(ConvLayout::NHWC, n, h, wi, 0, d.H, d.W, d.C)];
          const double* wp = &w[filter_offset(ConvLayout::NHWC, k, r, s, 0, d.R, d.S, d.C)];
          for (int c = 0; c < d.C; ++c) sum += xp[c] * wp[c];
        }
      }
      y[m * static_cast<size_t>(d.K) + static_cast<size_t>(k)] = sum;
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
