#include "kernels/attention/attention_dims.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

namespace archbench::kernels::attention {

std::string AttentionDims::str() const {
  return "B" + std::to_string(B) + "_H" + std::to_string(H) + "_Nq" + std::to_string(Nq) + "_Nk" + std::to_string(Nk) +
         "_D" + std::to_string(D);
}

double AttentionDims::flops() const { return 4.0 * B * H * static_cast<double>(Nq) * Nk * D; }

double AttentionDims::bytes(DType d) const {
  return static_cast<double>(storage_bytes(storage_dtype(d))) * B * H * static_cast<double>(D) * (2.0 * Nq + 2.0 * Nk);
}

AttentionDims AttentionDims::check_dims() const { return {std::min(B, 2), std::min(H, 2), std::min(Nq, 200), Nk, D}; }

}  // namespace archbench::kernels::attention
