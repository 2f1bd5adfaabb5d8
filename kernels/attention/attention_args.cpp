#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/attention/attention_kernels.hpp"

namespace archbench::kernels::attention {

bool supported_head_dim(int d) { return std::ranges::find(kHeadDims, d) != kHeadDims.end(); }

void validate_attention_args(const char* fn, const void* q, const void* k, const void* v, const void* o,
                             const AttentionDims& dims) {
  const std::string prefix = std::string(fn) + ": ";
  if (dims.B < 1 || dims.H < 1 || dims.Nq < 1 || dims.Nk < 1) {
    throw std::invalid_argument(prefix + "B, H, Nq and Nk must be >= 1 (got " + dims.str() + ")");
  }
  if (dims.heads() > 65535) {
    throw std::invalid_argument(prefix + "B*H must be <= 65535 (one grid row per head), got " + dims.str());
  }
  if (!supported_head_dim(dims.D)) {
    throw std::invalid_argument(prefix + "head dim " + std::to_string(dims.D) +
                                " has no kernel (instantiated for 40, 64, 80, 128, 160)");
  }
  for (const void* p : {q, k, v, o}) {
    if (p == nullptr || reinterpret_cast<std::uintptr_t>(p) % 16 != 0) {
      throw std::invalid_argument(prefix + "Q, K, V and O must be non-null and 16-byte aligned");
    }
  }
}

}  // namespace archbench::kernels::attention
