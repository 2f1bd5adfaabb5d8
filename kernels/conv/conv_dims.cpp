#include "kernels/conv/conv_dims.hpp"

#include <algorithm>
#include <string>

namespace archbench::kernels::conv {

const char* layout_name(ConvLayout l) { return l == ConvLayout::NHWC ? "nhwc" : "nchw"; }

std::string ConvDims::str() const {
  std::string s = "B" + std::to_string(N) + "_C" + std::to_string(C) + "_H" + std::to_string(H) + "_W" +
                  std::to_string(W) + "_K" + std::to_string(K) + "_" + std::to_string(R) + "x" + std::to_string(S) +
                  "_s" + std::to_string(stride);
  if (pad != (R - 1) / 2) s += "_p" + std::to_string(pad);
  return s;
}

double ConvDims::flops() const {
  return 2.0 * static_cast<double>(gemm_m()) * static_cast<double>(K) * static_cast<double>(gemm_k());
}

double ConvDims::bytes(DType math) const {
  const auto e = static_cast<double>(storage_bytes(storage_dtype(math)));
  return e * (static_cast<double>(input_numel()) + static_cast<double>(filter_numel()) +
              static_cast<double>(output_numel()));
}

ConvDims ConvDims::check_dims() const {
  constexpr int kMaxBatch = 2;
  constexpr int kMaxP = 10;
  constexpr int kMaxQ = 13;
  constexpr int kMaxK = 200;
  ConvDims d = *this;
  d.N = std::min(N, kMaxBatch);
  // The smallest input that still yields kMaxP x kMaxQ outputs: (P-1)*stride + R - 2*pad.
  d.H = std::min(H, std::max(1, (kMaxP - 1) * stride + R - 2 * pad));
  d.W = std::min(W, std::max(1, (kMaxQ - 1) * stride + S - 2 * pad));
  d.K = std::min(K, kMaxK);
  return d;
}

bool ConvDims::valid() const {
  return N >= 1 && H >= 1 && W >= 1 && C >= 1 && K >= 1 && R >= 1 && S >= 1 && stride >= 1 && pad >= 0 &&
         H + 2 * pad >= R && W + 2 * pad >= S;
}

size_t activation_offset(ConvLayout l, int n, int h, int w, int c, int H, int W, int C) {
  const size_t n_ = static_cast<size_t>(n), h_ = static_cast<size_t>(h), w_ = static_cast<size_t>(w), c_ = static_cast<size_t>(c);
  if (l == ConvLayout::NHWC) return ((n_ * H + h_) * W + w_) * C + c_;
  return ((n_ * C + c_) * H + h_) * W + w_;
}

size_t filter_offset(ConvLayout l, int k, int r, int s, int c, int R, int S, int C) {
  const size_t k_ = static_cast<size_t>(k), r_ = static_cast<size_t>(r), s_ = static_cast<size_t>(s), c_ = static_cast<size_t>(c);
  if (l == ConvLayout::NHWC) return ((k_ * R + r_) * S + s_) * C + c_;
  return ((k_ * C + c_) * R + r_) * S + s_;
}

}  // namespace archbench::kernels::conv
