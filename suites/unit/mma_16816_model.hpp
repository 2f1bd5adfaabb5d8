// mma.sync.aligned.m16n8k16.row.col on the host, across one warp, for the tests that replay a
// tensor-core kernel's fragments (conv_tc, gemm_tc): lane l holds A fragment a0 (row g, k 2t..),
// a1 (row g + 8, k 2t..), a2 (row g, k 2t + 8..), a3 (row g + 8, k 2t + 8..), B fragment b0
// (k 2t.., col g), b1 (k 2t + 8.., col g), two elements each, and D c0, c1 (row g, cols 2t,
// 2t + 1), c2, c3 (row g + 8), with g = l / 4, t = l % 4 (the PTX ISA's fragment layouts).
#pragma once

namespace archbench::testing_support {

// acc (each lane's c0..c3) += a (a0..a3) · b (b0, b1) for one m16n8k16 tile.
template <typename T>
void mma_16816(T (&acc)[32][4], const T (&a)[32][4][2], const T (&b)[32][2][2]) {
  T am[16][16];
  T bm[16][8];
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4;
    const int t = lane % 4;
    for (int e = 0; e < 2; ++e) {
      am[g][2 * t + e] = a[lane][0][e];
      am[g + 8][2 * t + e] = a[lane][1][e];
      am[g][2 * t + 8 + e] = a[lane][2][e];
      am[g + 8][2 * t + 8 + e] = a[lane][3][e];
      bm[2 * t + e][g] = b[lane][0][e];
      bm[2 * t + 8 + e][g] = b[lane][1][e];
    }
  }
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4;
    const int t = lane % 4;
    for (int c = 0; c < 4; ++c) {
      const int m = g + (c / 2) * 8;
      const int n = 2 * t + c % 2;
      for (int k = 0; k < 16; ++k) acc[lane][c] += am[m][k] * bm[k][n];
    }
  }
}

}  // namespace archbench::testing_support
