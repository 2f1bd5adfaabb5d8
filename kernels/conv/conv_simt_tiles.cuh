// The tiling of the SIMT convolution kernel (conv_simt.cu): block tile sizes and which float4 of
// the gathered input and of the filter each thread fetches per k-tile. Host and device code, so
// that suites/unit/kernels/conv/conv_loader_test.cpp can replay every thread's fetches on the CPU.
#pragma once

#include "kernels/conv/conv_gather.cuh"

namespace archbench::kernels::conv::simt {

constexpr int kBlockM = kSimtBlockM;  // 128 output pixels
constexpr int kBlockN = kSimtBlockN;  // 128 output channels
constexpr int kBlockK = kSimtBlockK;  // 8 reduction elements per k-tile
constexpr int kThreads = 256;
constexpr int kVector = 4;            // floats per fetch

static_assert(kBlockM == kBlockN, "one float4 of A and one of B per thread");
static_assert(kBlockM * kBlockK == kVector * kThreads, "one float4 of A and of B per thread per k-tile");

// Thread tid fetches, per k-tile, the float4 at tile row row() = tid / 2 and k positions
// k() .. k() + 3 with k() = (tid % 2) * 4: of A (4 channels of one tap of output pixel
// tile_m*128 + row()) and of B (filter row tile_n*128 + row()). C % 4 == 0 keeps the float4
// inside one tap and R*S*C % 4 == 0 entirely below or past the end of the reduction. Tiles must
// be loaded in increasing order, one load() per tile, starting at first_k_tile.
class SimtLoader {
 public:
  CONV_HD SimtLoader(const ConvParams& p, int tile_m, int tile_n, int tid, int first_k_tile)
      : row_(tid / 2), k_((tid % 2) * kVector) {
    window_ = pixel_window(p, tile_m * kBlockM + row_);
    const int k_out = tile_n * kBlockN + row_;
    filter_offset_ = k_out < p.K ? k_out * p.Kg + k_ : -1;
    tap_.start(p, first_k_tile * kBlockK + k_);
  }
  [[nodiscard]] CONV_HD int row() const { return row_; }
  [[nodiscard]] CONV_HD int k() const { return k_; }

  // Calls fetch(filter, offset, valid) for this thread's float4 of A (filter = false: offset
  // in x) and then of B (filter = true: offset in w) of k-tile `k_tile` (global index).
  // valid = false means zeros (padding tap, row past M or K, k past R*S*C); offset is then 0.
  template <typename Fetch>
  CONV_HD void load(const ConvParams& p, int k_tile, Fetch&& fetch) {
    const bool a_ok = tap_.in_range(p) && tap_inside(p, window_, tap_.r, tap_.s);
    fetch(false, a_ok ? tap_offset(p, window_, tap_.r, tap_.s, tap_.c) : 0, a_ok);
    const int j = k_tile * kBlockK + k_;
    const bool b_ok = filter_offset_ >= 0 && j < p.Kg;
    fetch(true, b_ok ? filter_offset_ + k_tile * kBlockK : 0, b_ok);
    tap_.advance(p, kBlockK);
  }

 private:
  PixelWindow window_;
  int filter_offset_;  // of (row, k) in w; -1 for rows past K
  TapCursor tap_;
  int row_;
  int k_;
};

}  // namespace archbench::kernels::conv::simt
