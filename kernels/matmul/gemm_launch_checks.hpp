// What every GEMM kernel of this family requires of its arguments, checked on the host before the
// launch: shapes it can tile, 16-byte aligned operands (vector loads / cp.async), and a grid the
// hardware can launch. One rule set for the SIMT and the tensor-core kernels.
#pragma once

namespace archbench::kernels::matmul {

struct GemmTiling {
  int block_m = 128;   // rows of C per thread block
  int block_n = 128;   // columns of C per thread block
  int k_multiple = 8;  // K must be a positive multiple of this
  int n_multiple = 1;  // N must be a multiple of this (8: C's rows written by the copy engine)
};

// Throws std::invalid_argument naming `fn` and what is wrong.
void validate_gemm_launch(const char* fn, const GemmTiling& tiling, const void* A, const void* B, const void* C, int M,
                          int N, int K);

}  // namespace archbench::kernels::matmul
