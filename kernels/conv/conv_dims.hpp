// The geometry of one 2-D convolution (cross-correlation, as nn.Conv2d computes it, no bias, no
// dilation, zero padding) and the index mapping of its two memory layouts. Plain C++: used by the
// kernels' host code (nvcc, C++17), the problems, the cuDNN twins and the unit tests.
#pragma once

#include <cstddef>
#include <string>

#include "harness/ops/dtype.hpp"

namespace archbench::kernels::conv {

// NHWC: activations x[N][H][W][C], filter w[K][R][S][C] ("KRSC", cuDNN's NHWC filter format),
//       output y[N][P][Q][K]. Channels are contiguous, so the GEMM reduction (r, s, c) is
//       contiguous in the filter and, for one (r, s), in the input.
// NCHW: activations x[N][C][H][W], filter w[K][C][R][S] ("KCRS"), output y[N][K][P][Q].
enum class ConvLayout { NHWC, NCHW };

[[nodiscard]] const char* layout_name(ConvLayout l);  // "nhwc", "nchw"

struct ConvDims {
  int N = 0;  // batch
  int H = 0, W = 0, C = 0;  // input height, width, channels
  int K = 0;                // output channels
  int R = 0, S = 0;         // filter height, width
  int stride = 1;           // both spatial dimensions
  int pad = 0;              // zero padding on every border

  // Output height and width.
  [[nodiscard]] int P() const { return (H + 2 * pad - R) / stride + 1; }
  [[nodiscard]] int Q() const { return (W + 2 * pad - S) / stride + 1; }

  // The implicit-GEMM view: M = N*P*Q output pixels, N_gemm = K, K_gemm = R*S*C.
  [[nodiscard]] long long gemm_m() const { return 1LL * N * P() * Q(); }
  [[nodiscard]] long long gemm_k() const { return 1LL * R * S * C; }

  [[nodiscard]] size_t input_numel() const { return size_t{1} * N * H * W * C; }
  [[nodiscard]] size_t filter_numel() const { return size_t{1} * K * R * S * C; }
  [[nodiscard]] size_t output_numel() const { return size_t{1} * N * P() * Q() * K; }

  // "B2_C320_H64_W64_K320_3x3_s1": batch, input channels, input height and width, output
  // channels, filter RxS, stride; "_p<pad>" follows only when the padding is not (R-1)/2, the
  // "same"-style padding every workload convolution uses.
  [[nodiscard]] std::string str() const;
  // 2*N*P*Q*K*R*S*C.
  [[nodiscard]] double flops() const;
  // Input + filter + output, each once, in the storage type of `math`.
  [[nodiscard]] double bytes(DType math) const;
  // The shape checked against the float64 CPU reference: the same C, R, S, stride and padding
  // (so the reduction length R*S*C, which drives rounding error, is the real one), batch <= 2,
  // at most 10 x 13 output pixels per image (M = 260 at batch 2: two full 128-row tiles and a
  // ragged one) and at most 200 output channels (not a multiple of the 64/128 tiles).
  [[nodiscard]] ConvDims check_dims() const;
  // Every extent positive and an output of at least 1x1; false for nonsense shapes.
  [[nodiscard]] bool valid() const;
};

// Flat offsets of one element in the given layout (see ConvLayout).
[[nodiscard]] size_t activation_offset(ConvLayout l, int n, int h, int w, int c, int H, int W, int C);
[[nodiscard]] size_t filter_offset(ConvLayout l, int k, int r, int s, int c, int R, int S, int C);

}  // namespace archbench::kernels::conv
