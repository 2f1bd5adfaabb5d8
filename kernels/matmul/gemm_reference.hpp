// The float64 CPU reference of the matmul family: C = A · Bᵀ with both operands K-contiguous
// (A is [M][K], B is [N][K], C is [M][N]), as every GEMM operator of the family computes it.
#pragma once

#include <vector>

#include "kernels/matmul/gemm_problem.hpp"

namespace archbench::kernels::matmul {

// Each output is one dot product over K in float64; rows are split over the host's cores.
[[nodiscard]] std::vector<double> reference_gemm(const std::vector<double>& a, const std::vector<double>& b,
                                                 GemmDims d);

}  // namespace archbench::kernels::matmul
