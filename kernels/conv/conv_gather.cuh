// How the own convolution kernels find their operands: the kernel parameters, the input window
// of an output pixel, and the walk along the reduction (r, s, c). Host and device code, so that
// the unit tests run the very arithmetic the kernels run (suites/unit/kernels/conv/conv_loader_test.cpp);
// g++ compiles it too, hence CONV_HD instead of __host__ __device__.
#pragma once

#include <cuda_runtime.h>

#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_plan.hpp"

#if defined(__CUDACC__)
#define CONV_HD __host__ __device__ __forceinline__
#else
#define CONV_HD inline
#endif
// Fixed-count loops over per-thread register arrays must unroll in device code (or the arrays
// go to local memory); g++ would warn about an unknown pragma.
#if defined(__CUDA_ARCH__)
#define CONV_UNROLL _Pragma("unroll")
#else
#define CONV_UNROLL
#endif

namespace archbench::kernels::conv {

// One convolution as the kernels see it (NHWC x, KRSC w, NHWC y; see conv_kernels.hpp). Every
// flat offset fits in int (validate_own_conv).
struct ConvParams {
  int H, W, C, K, R, S, stride, pad, P, Q;
  int M;                  // N*P*Q: GEMM rows
  int Kg;                 // R*S*C: the reduction length
  int k_tiles;            // ceil(Kg / block_k)
  int k_tiles_per_split;  // k-tiles of each blockIdx.z slice
};

// Validates shape and plan (std::invalid_argument) and fills the parameters; k-tiles are
// plan.block_k wide.
inline ConvParams make_conv_params(const ConvDims& d, const ConvPlan& plan, const char* who) {
  validate_own_conv(d, who);
  validate_plan(plan, d, who);
  ConvParams p{};
  p.H = d.H;
  p.W = d.W;
  p.C = d.C;
  p.K = d.K;
  p.R = d.R;
  p.S = d.S;
  p.stride = d.stride;
  p.pad = d.pad;
  p.P = d.P();
  p.Q = d.Q();
  p.M = static_cast<int>(d.gemm_m());
  p.Kg = static_cast<int>(d.gemm_k());
  p.k_tiles = (p.Kg + plan.block_k - 1) / plan.block_k;
  p.k_tiles_per_split = plan.k_tiles_per_split;
  return p;
}

// The k-tiles of z slice `split`: [begin, begin + count); count is 0 past the end.
struct SliceTiles {
  int begin;
  int count;
};
CONV_HD SliceTiles slice_tiles(const ConvParams& p, int split) {
  const int begin = split * p.k_tiles_per_split;
  const int left = p.k_tiles - begin;
  return {begin, left <= 0 ? 0 : (left < p.k_tiles_per_split ? left : p.k_tiles_per_split)};
}

// An input coordinate no tap can bring into the image: rows past M get it, so that their
// bounds test fails like a padding tap and they load zeros.
constexpr int kOutsideImage = -(1 << 28);

// Where output pixel m reads: the offset of its image in x, and the input (h, w) of its tap
// (r, s) = (0, 0); tap (r, s) reads (h0 + r, w0 + s), inside the image or on the zero padding.
struct PixelWindow {
  int image_offset;
  int h0;
  int w0;
};

CONV_HD PixelWindow pixel_window(const ConvParams& p, int m) {
  if (m >= p.M) return {0, kOutsideImage, kOutsideImage};
  const int pixels = p.P * p.Q;
  const int n = m / pixels;
  const int pq = m - n * pixels;
  const int out_h = pq / p.Q;
  const int out_w = pq - out_h * p.Q;
  return {n * p.H * p.W * p.C, out_h * p.stride - p.pad, out_w * p.stride - p.pad};
}

// True when tap (r, s) of a window lies inside the image (false on the padding).
CONV_HD bool tap_inside(const ConvParams& p, const PixelWindow& win, int r, int s) {
  return static_cast<unsigned>(win.h0 + r) < static_cast<unsigned>(p.H) &&
         static_cast<unsigned>(win.w0 + s) < static_cast<unsigned>(p.W);
}

// Offset in x of channel c of tap (r, s) of a window (only meaningful when tap_inside).
CONV_HD int tap_offset(const ConvParams& p, const PixelWindow& win, int r, int s, int c) {
  return win.image_offset + ((win.h0 + r) * p.W + (win.w0 + s)) * p.C + c;
}

// A position j = (r*S + s)*C + c along the reduction, kept as (r, s, c) and advanced without
// division. Past the end r >= R (then nothing is loaded).
struct TapCursor {
  int r;
  int s;
  int c;

  CONV_HD void start(const ConvParams& p, int j) {
    c = j % p.C;
    const int rs = j / p.C;
    s = rs % p.S;
    r = rs / p.S;
  }
  CONV_HD void advance(const ConvParams& p, int step) {
    c += step;
    while (c >= p.C) {  // at most once when C >= step; C = 4 with step 32 wraps 8 times
      c -= p.C;
      if (++s == p.S) {
        s = 0;
        ++r;
      }
    }
  }
  [[nodiscard]] CONV_HD bool in_range(const ConvParams& p) const { return r < p.R; }
};

}  // namespace archbench::kernels::conv
