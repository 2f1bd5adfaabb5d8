#include "kernels/matmul/gemm_launch_checks.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace archbench::kernels::matmul {
namespace {

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

void validate_gemm_launch(const char* fn, const GemmTiling& tiling, const void* A, const void* B, const void* C, int M,
                          int N, int K) {
  const std::string prefix = std::string(fn) + ": ";
  if (M < 1 || N < 1) {
    throw std::invalid_argument(prefix + "M and N must be >= 1 (got M=" + std::to_string(M) +
                                ", N=" + std::to_string(N) + ")");
  }
  if (K < tiling.k_multiple || K % tiling.k_multiple != 0) {
    throw std::invalid_argument(prefix + "K must be a positive multiple of " + std::to_string(tiling.k_multiple) +
                                " (got " + std::to_string(K) + ")");
  }
  if (N % tiling.n_multiple != 0) {
    throw std::invalid_argument(prefix + "N must be a multiple of " + std::to_string(tiling.n_multiple) + " (got " +
                                std::to_string(N) + ")");
  }
  if (!aligned16(A) || !aligned16(B) || !aligned16(C)) {
    throw std::invalid_argument(prefix + "A, B and C must be 16-byte aligned");
  }
  const long long tiles_m = (static_cast<long long>(M) + tiling.block_m - 1) / tiling.block_m;
  const long long tiles_n = (static_cast<long long>(N) + tiling.block_n - 1) / tiling.block_n;
  if (tiles_m > 65535 || tiles_m * tiles_n > std::numeric_limits<int>::max()) {
    throw std::invalid_argument(prefix + "M x N too large for the launch grid");
  }
}

}  // namespace archbench::kernels::matmul
