// The float64 CPU reference of a convolution, and the layout permutations it (and the problems,
// which draw every input in NHWC order so that both layouts see the same logical tensors) use.
#pragma once

#include <vector>

#include "kernels/conv/conv_dims.hpp"

namespace archbench::kernels::conv {

// y = conv(x, w) in float64 with x, w and y all in `layout` (see ConvLayout): for every output
// pixel (n, p, q) and channel k, the sum over taps (r, s) whose input pixel
// (p*stride - pad + r, q*stride - pad + s) lies inside the image, and over channels c, of
// x[n, h, w, c] * w[k, r, s, c]. Taps on the zero padding contribute nothing.
[[nodiscard]] std::vector<double> reference_conv(const std::vector<double>& x, const std::vector<double>& w,
                                                 const ConvDims& d, ConvLayout layout);

// Permutes a dense [A][B][C][D] tensor (activations NHWC, or a KRSC filter with A=K, B=R, C=S,
// D=C) to [A][D][B][C] (NCHW, or KCRS), and back.
[[nodiscard]] std::vector<double> channels_last_to_first(const std::vector<double>& t, int a, int b, int c, int d);
[[nodiscard]] std::vector<double> channels_first_to_last(const std::vector<double>& t, int a, int b, int c, int d);

}  // namespace archbench::kernels::conv
