// Where the copy engine (a tensor copy with the 128- or 64-byte swizzle) puts byte `offset` of a
// box whose rows are `row_bytes` long (128 or 64), in a 1024-byte-aligned shared-memory buffer:
// the 16-byte unit bits of the address (4 and up) are XORed with the bits from 7 up, three of them
// for the 128-byte swizzle, two for the 64-byte one (the PTX ISA's tensor swizzle modes). The
// kernels that let the copy engine fill their tiles (conv_tc, gemm_tc) must lay their tiles out
// exactly so; their tests compare.
#pragma once

#include <cstdint>

namespace archbench::testing_support {

inline std::uint32_t tensor_copy_swizzle(std::uint32_t offset, int row_bytes) {
  const std::uint32_t mask = row_bytes == 128 ? 7u : 3u;
  return offset ^ (((offset >> 7) & mask) << 4);
}

}  // namespace archbench::testing_support
