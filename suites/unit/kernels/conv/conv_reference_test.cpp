// The float64 convolution reference on cases small enough to check by hand: a 1x1 convolution
// is a matrix product, a delta filter shifts the image, stride 2 and the zero padding at the
// borders, and the NCHW / NHWC index mappings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_reference.hpp"

namespace archbench::kernels::conv {
namespace {

// {N, H, W, C, K, R, S, stride, pad}
ConvDims dims(int n, int h, int w, int c, int k, int r, int s, int stride, int pad) {
  return ConvDims{n, h, w, c, k, r, s, stride, pad};
}

TEST(ConvReference, HandComputedOneByOne) {
  // Two pixels (1x2 image) of two channels, two output channels.
  const ConvDims d = dims(1, 1, 2, 2, 2, 1, 1, 1, 0);
  const std::vector<double> x{1, 2,   // pixel 0: c0, c1
                              3, 4};  // pixel 1
  const std::vector<double> w{1, 0,    // k0 = c0
                              2, -1};  // k1 = 2*c0 - c1
  EXPECT_EQ(reference_conv(x, w, d, ConvLayout::NHWC), (std::vector<double>{1, 0, 3, 2}));
}

TEST(ConvReference, OneByOneIsAMatrixProduct) {
  const ConvDims d = dims(2, 3, 5, 7, 4, 1, 1, 1, 0);
  std::vector<double> x(d.input_numel());
  std::vector<double> w(d.filter_numel());
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i % 11) - 5.0;
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<double>(i % 7) - 3.0;
  const auto y = reference_conv(x, w, d, ConvLayout::NHWC);
  const int pixels = d.N * d.H * d.W;
  ASSERT_EQ(y.size(), static_cast<size_t>(pixels * d.K));
  for (int m = 0; m < pixels; ++m) {
    for (int k = 0; k < d.K; ++k) {
      double expect = 0;
      for (int c = 0; c < d.C; ++c) expect += x[static_cast<size_t>(m * d.C + c)] * w[static_cast<size_t>(k * d.C + c)];
      EXPECT_EQ(y[static_cast<size_t>(m * d.K + k)], expect) << "pixel " << m << " channel " << k;
    }
  }
}

// x[h][w] = 10*h + w + 1 (one channel), so every value names its position.
std::vector<double> positional_image(int H, int W) {
  std::vector<double> x(static_cast<size_t>(H) * W);
  for (int h = 0; h < H; ++h)
    for (int w = 0; w < W; ++w) x[static_cast<size_t>(h * W + w)] = 10.0 * h + w + 1;
  return x;
}

TEST(ConvReference, DeltaFilterShiftsTheImage) {
  // 3x3, pad 1, a single 1 at tap (r, s) = (0, 2): y[p][q] = x[p - 1][q + 1], 0 outside.
  const ConvDims d = dims(1, 4, 5, 1, 1, 3, 3, 1, 1);
  const auto x = positional_image(4, 5);
  std::vector<double> w(9, 0.0);
  w[0 * 3 + 2] = 1.0;
  const auto y = reference_conv(x, w, d, ConvLayout::NHWC);
  ASSERT_EQ(d.P(), 4);
  ASSERT_EQ(d.Q(), 5);
  for (int p = 0; p < 4; ++p) {
    for (int q = 0; q < 5; ++q) {
      const int h = p - 1;
      const int wi = q + 1;
      const double expect = (h >= 0 && wi < 5) ? 10.0 * h + wi + 1 : 0.0;
      EXPECT_EQ(y[static_cast<size_t>(p * 5 + q)], expect) << "p " << p << " q " << q;
    }
  }
  // The centre tap is the identity.
  std::fill(w.begin(), w.end(), 0.0);
  w[4] = 1.0;
  EXPECT_EQ(reference_conv(x, w, d, ConvLayout::NHWC), x);
}

TEST(ConvReference, DeltaFiltersPickChannels) {
  // Output channel 0 copies input channel 2 at the centre tap; output channel 1 copies input
  // channel 0 of the pixel one row down and one column left (tap (2, 0)).
  const ConvDims d = dims(1, 3, 3, 3, 2, 3, 3, 1, 1);
  std::vector<double> x(d.input_numel());
  for (int h = 0; h < 3; ++h)
    for (int w = 0; w < 3; ++w)
      for (int c = 0; c < 3; ++c) x[activation_offset(ConvLayout::NHWC, 0, h, w, c, 3, 3, 3)] = 100.0 * c + 10 * h + w;
  std::vector<double> w(d.filter_numel(), 0.0);
  w[filter_offset(ConvLayout::NHWC, 0, 1, 1, 2, 3, 3, 3)] = 1.0;
  w[filter_offset(ConvLayout::NHWC, 1, 2, 0, 0, 3, 3, 3)] = 1.0;
  const auto y = reference_conv(x, w, d, ConvLayout::NHWC);
  for (int p = 0; p < 3; ++p) {
    for (int q = 0; q < 3; ++q) {
      EXPECT_EQ(y[activation_offset(ConvLayout::NHWC, 0, p, q, 0, 3, 3, 2)], 200.0 + 10 * p + q);
      const bool inside = p + 1 < 3 && q - 1 >= 0;
      EXPECT_EQ(y[activation_offset(ConvLayout::NHWC, 0, p, q, 1, 3, 3, 2)], inside ? 10.0 * (p + 1) + (q - 1) : 0.0);
    }
  }
}

TEST(ConvReference, PaddingAtTheBordersCountsTaps) {
  // All ones, 3x3, pad 1, two channels: each output is 2 x (taps inside the image).
  const ConvDims d = dims(1, 3, 3, 2, 1, 3, 3, 1, 1);
  const auto y = reference_conv(std::vector<double>(d.input_numel(), 1.0), std::vector<double>(d.filter_numel(), 1.0),
                                d, ConvLayout::NHWC);
  EXPECT_EQ(y, (std::vector<double>{8, 12, 8, 12, 18, 12, 8, 12, 8}));
}

TEST(ConvReference, StrideTwoOutputSizeAndValues) {
  // 5x6 input, 3x3, stride 2, pad 1: P = (5 + 2 - 3) / 2 + 1 = 3, Q = (6 + 2 - 3) / 2 + 1 = 3.
  const ConvDims d = dims(1, 5, 6, 1, 1, 3, 3, 2, 1);
  ASSERT_EQ(d.P(), 3);
  ASSERT_EQ(d.Q(), 3);
  // All ones: taps inside per output. Rows: p=0 reads h -1..1 (2 inside), p=1 1..3 (3), p=2
  // 3..5 (2: h=5 is padding). Columns: q=0 2, q=1 3, q=2 reads 3..5, all inside (3).
  const auto ones = reference_conv(std::vector<double>(30, 1.0), std::vector<double>(9, 1.0), d, ConvLayout::NHWC);
  EXPECT_EQ(ones, (std::vector<double>{4, 6, 6, 6, 9, 9, 4, 6, 6}));
  // Centre tap: y[p][q] = x[2p][2q].
  std::vector<double> centre(9, 0.0);
  centre[4] = 1.0;
  const auto x = positional_image(5, 6);
  const auto y = reference_conv(x, centre, d, ConvLayout::NHWC);
  for (int p = 0; p < 3; ++p)
    for (int q = 0; q < 3; ++q) EXPECT_EQ(y[static_cast<size_t>(p * 3 + q)], 10.0 * (2 * p) + 2 * q + 1);
}

TEST(ConvReference, BatchImagesAreIndependent) {
  // Image 1 is image 0 times 3; a 3x3 filter of ones: output 1 is output 0 times 3.
  const ConvDims d = dims(2, 4, 4, 2, 3, 3, 3, 1, 1);
  std::vector<double> x(d.input_numel());
  const size_t per_image = x.size() / 2;
  for (size_t i = 0; i < per_image; ++i) {
    x[i] = static_cast<double>(i % 5) - 2.0;
    x[per_image + i] = 3.0 * x[i];
  }
  const auto y = reference_conv(x, std::vector<double>(d.filter_numel(), 1.0), d, ConvLayout::NHWC);
  const size_t out_per_image = y.size() / 2;
  bool any_nonzero = false;
  for (size_t i = 0; i < out_per_image; ++i) {
    EXPECT_EQ(y[out_per_image + i], 3.0 * y[i]);
    any_nonzero = any_nonzero || y[i] != 0.0;
  }
  EXPECT_TRUE(any_nonzero);
}

TEST(ConvReference, RandomStridedPaddedBatchAgainstTheDefinition) {
  // Random values, two images, stride 2 and padding, 7x6 outputs an image (84 pixels: blocks of the
  // pixel split that cross images and end short), compared with the definition's seven loops.
  const ConvDims d = dims(2, 13, 11, 19, 5, 3, 3, 2, 1);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> x(d.input_numel()), w(d.filter_numel());
  for (auto& v : x) v = u(rng);
  for (auto& v : w) v = u(rng);
  const auto y = reference_conv(x, w, d, ConvLayout::NHWC);
  ASSERT_EQ(y.size(), d.output_numel());
  for (int n = 0; n < d.N; ++n)
    for (int p = 0; p < d.P(); ++p)
      for (int q = 0; q < d.Q(); ++q)
        for (int k = 0; k < d.K; ++k) {
          double expect = 0, magnitude = 0;
          for (int r = 0; r < d.R; ++r)
            for (int s = 0; s < d.S; ++s)
              for (int c = 0; c < d.C; ++c) {
                const int h = p * d.stride - d.pad + r, wi = q * d.stride - d.pad + s;
                if (h < 0 || h >= d.H || wi < 0 || wi >= d.W) continue;
                const double product = x[activation_offset(ConvLayout::NHWC, n, h, wi, c, d.H, d.W, d.C)] *
                                       w[filter_offset(ConvLayout::NHWC, k, r, s, c, d.R, d.S, d.C)];
                expect += product;
                magnitude += std::abs(product);
              }
          const double got = y[activation_offset(ConvLayout::NHWC, n, p, q, k, d.P(), d.Q(), d.K)];
          ASSERT_NEAR(got, expect, 200 * 0x1p-52 * magnitude) << n << " " << p << " " << q << " " << k;
        }
}

TEST(ConvLayouts, OffsetsFollowTheDocumentedOrder) {
  // x[N=2][H=3][W=4][C=5] vs x[N][C][H][W]: element (n=1, h=2, w=3, c=4).
  EXPECT_EQ(activation_offset(ConvLayout::NHWC, 1, 2, 3, 4, 3, 4, 5), static_cast<size_t>(((1 * 3 + 2) * 4 + 3) * 5 + 4));
  EXPECT_EQ(activation_offset(ConvLayout::NCHW, 1, 2, 3, 4, 3, 4, 5), static_cast<size_t>(((1 * 5 + 4) * 3 + 2) * 4 + 3));
  // w[K][R=3][S=2][C=6] (KRSC) vs w[K][C][R][S] (KCRS): element (k=2, r=1, s=1, c=5).
  EXPECT_EQ(filter_offset(ConvLayout::NHWC, 2, 1, 1, 5, 3, 2, 6), static_cast<size_t>(((2 * 3 + 1) * 2 + 1) * 6 + 5));
  EXPECT_EQ(filter_offset(ConvLayout::NCHW, 2, 1, 1, 5, 3, 2, 6), static_cast<size_t>(((2 * 6 + 5) * 3 + 1) * 2 + 1));
}

TEST(ConvLayouts, PermutationsMoveChannels) {
  // One image 1x2 with 3 channels: NHWC [a0 a1 a2 b0 b1 b2] -> NCHW [a0 b0 a1 b1 a2 b2].
  const std::vector<double> nhwc{1, 2, 3, 4, 5, 6};
  const auto nchw = channels_last_to_first(nhwc, 1, 1, 2, 3);
  EXPECT_EQ(nchw, (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(channels_first_to_last(nchw, 1, 1, 2, 3), nhwc);
  EXPECT_THROW((void)channels_last_to_first(nhwc, 1, 2, 2, 3), std::invalid_argument);
}

TEST(ConvLayouts, NchwReferenceIsThePermutedNhwcReference) {
  const ConvDims d = dims(2, 5, 7, 3, 4, 3, 3, 2, 1);
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> small(-4, 4);
  std::vector<double> x(d.input_numel());
  std::vector<double> w(d.filter_numel());
  for (auto& v : x) v = small(rng);
  for (auto& v : w) v = small(rng);
  const auto y_nhwc = reference_conv(x, w, d, ConvLayout::NHWC);
  const auto y_nchw = reference_conv(channels_last_to_first(x, d.N, d.H, d.W, d.C),
                                     channels_last_to_first(w, d.K, d.R, d.S, d.C), d, ConvLayout::NCHW);
  EXPECT_EQ(y_nchw, channels_last_to_first(y_nhwc, d.N, d.P(), d.Q(), d.K));
  // And element by element through the offset functions, integers so exact.
  for (int n = 0; n < d.N; ++n)
    for (int p = 0; p < d.P(); ++p)
      for (int q = 0; q < d.Q(); ++q)
        for (int k = 0; k < d.K; ++k) {
          EXPECT_EQ(y_nchw[activation_offset(ConvLayout::NCHW, n, p, q, k, d.P(), d.Q(), d.K)],
                    y_nhwc[activation_offset(ConvLayout::NHWC, n, p, q, k, d.P(), d.Q(), d.K)]);
        }
}

TEST(ConvLayouts, HandComputedNchwOneByOne) {
  // NCHW 1x1: y[k][pixel] = sum_c w[k][c] x[c][pixel]. One image, 2 channels, 1x3 pixels.
  const ConvDims d = dims(1, 1, 3, 2, 1, 1, 1, 1, 0);
  const std::vector<double> x{1, 2, 3,     // channel 0 over the 3 pixels
                              10, 20, 30};  // channel 1
  const std::vector<double> w{2, -1};       // y = 2*c0 - c1
  EXPECT_EQ(reference_conv(x, w, d, ConvLayout::NCHW), (std::vector<double>{-8, -16, -24}));
}

TEST(ConvReference, RejectsMismatchedInputs) {
  const ConvDims d = dims(1, 3, 3, 2, 1, 3, 3, 1, 1);
  EXPECT_THROW((void)reference_conv(std::vector<double>(17), std::vector<double>(18), d, ConvLayout::NHWC),
               std::invalid_argument);
  EXPECT_THROW((void)reference_conv(std::vector<double>(18), std::vector<double>(17), d, ConvLayout::NHWC),
               std::invalid_argument);
  EXPECT_THROW((void)reference_conv({}, {}, dims(1, 1, 1, 1, 1, 3, 3, 1, 0), ConvLayout::NHWC),
               std::invalid_argument);
}

}  // namespace
}  // namespace archbench::kernels::conv
