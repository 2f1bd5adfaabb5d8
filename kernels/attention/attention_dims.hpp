// The shape of one scaled-dot-product attention call, O = softmax(Q Kᵀ / sqrt(d)) V (its float64
// reference: attention_reference.hpp).
//
// Layout (every implementation of this family): BHND, dense and contiguous.
//   Q [B, H, Nq, d], K [B, H, Nk, d], V [B, H, Nk, d], O [B, H, Nq, d]
// i.e. element (b, h, n, c) of Q is at ((b * H + h) * Nq + n) * d + c. No mask; Nq may differ
// from Nk (cross-attention), neither needs to be a multiple of any tile.
#pragma once

#include <cstddef>
#include <string>

#include "harness/ops/dtype.hpp"

namespace archbench::kernels::attention {

struct AttentionDims {
  int B = 0, H = 0, Nq = 0, Nk = 0, D = 0;

  // "B2_H8_Nq4096_Nk77_D40"
  [[nodiscard]] std::string str() const;
  [[nodiscard]] size_t heads() const { return static_cast<size_t>(B) * static_cast<size_t>(H); }
  [[nodiscard]] size_t q_numel() const { return heads() * static_cast<size_t>(Nq) * static_cast<size_t>(D); }
  [[nodiscard]] size_t kv_numel() const { return heads() * static_cast<size_t>(Nk) * static_cast<size_t>(D); }
  // 4·B·H·Nq·Nk·d: the two matmuls (QKᵀ and PV), softmax excluded (docs/reference/workload.md,
  // "FLOP and byte formulas").
  [[nodiscard]] double flops() const;
  // Q, K, V read once and O written once in the storage type: a fused kernel's ideal traffic.
  [[nodiscard]] double bytes(DType d) const;
  // The shape checked against the CPU reference: the head dim and the softmax length Nk kept
  // (they drive the rounding error and exercise the key tail), batch and heads cut to 2 each
  // (so the head and batch strides are still exercised), Nq cut to 200 (not a multiple of any
  // query tile).
  [[nodiscard]] AttentionDims check_dims() const;
};

}  // namespace archbench::kernels::attention
