// Which shared-memory row and 16-byte unit each lane of an ldmatrix.x4 names, for the operands of
// mma.sync.m16n8k16, and the XOR swizzle of 16-byte units that keeps those reads (and the 16-byte
// copies that fill the rows) free of bank conflicts. The portable tensor-core kernels (gemm_tc,
// conv_tc, flash_tc) all use these; host and device code, so that their CPU replay tests run the
// same maps.
#pragma once

#if defined(__CUDACC__)
#define LDMATRIX_HD __host__ __device__ __forceinline__
#else
#define LDMATRIX_HD inline
#endif

namespace archbench::kernels::ldmatrix {

// A row of a tile in shared memory and a 16-byte unit (8 f16/bf16 elements) along it.
struct RowUnit {
  int row;
  int unit;
};

// The A operand (16 x 16, row-major, k contiguous): the x4's matrices are rows 0-7 / k 0-7,
// rows 8-15 / k 0-7, rows 0-7 / k 8-15, rows 8-15 / k 8-15, exactly the mma registers a0..a3;
// lane l gives the address of row l % 16, unit l / 16.
LDMATRIX_HD constexpr RowUnit a_fragment_lane(int lane) { return {lane % 16, lane / 16}; }

// The B operand of two n8 tiles, stored with n as the row and k contiguous (read without
// transposition, lane l receives n = l / 4, k = 2 (l % 4) + {0, 1}): matrices (n 0-7, k 0-7),
// (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15) are b0, b1 of tile 0, then of tile 1; lane l
// gives row (l & 7) + 8 (l >> 4), unit (l >> 3) & 1.
LDMATRIX_HD constexpr RowUnit b_pair_lane(int lane) { return {(lane & 7) + ((lane >> 4) << 3), (lane >> 3) & 1}; }

// The B operand of two n8 tiles stored with k as the row and n contiguous, read with .trans
// (V in attention): matrices (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15);
// lane l gives row (l & 7) + 8 ((l >> 3) & 1), unit l >> 4.
LDMATRIX_HD constexpr RowUnit b_pair_trans_lane(int lane) { return {(lane & 7) + (((lane >> 3) & 1) << 3), lane >> 4}; }

// Where unit `unit` of row `row` is stored in a row of `units_per_row` units (4 or 8: 64- or
// 128-byte rows): at unit ^ f(row), f(row) = row % 8 for 8-unit rows, (row / 2) % 4 for 4-unit
// rows (two rows share a 128-byte line). The 8 consecutive rows one ldmatrix matrix reads, and
// the rows one quarter-warp of 16-byte copies writes, then fall on 8 different 16-byte bank
// groups. Period: 8 rows.
LDMATRIX_HD constexpr int swizzled_unit(int row, int unit, int units_per_row) {
  return unit ^ ((row / (8 / units_per_row)) % units_per_row);
}

}  // namespace archbench::kernels::ldmatrix
