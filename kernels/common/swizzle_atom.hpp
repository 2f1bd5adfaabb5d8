// The 1024-byte swizzle atom: the copy engine's (TMA's) 128- and 64-byte swizzles, and the wgmma
// descriptors' swizzle modes, follow address bits 7-9, so a swizzled tile starts its pattern only
// on a 1024-byte boundary. Dynamic shared memory is not promised that alignment: kernels align
// their base by hand and launch with the slack. Host and device code (the tile headers' sizes are
// checked by the CPU tests).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define SWIZZLE_ATOM_HD __host__ __device__ __forceinline__
#else
#define SWIZZLE_ATOM_HD inline
#endif

namespace archbench::kernels {

inline constexpr int kSwizzleAtomBytes = 1024;

// The first swizzle-atom boundary at or after shared-memory address `address`.
SWIZZLE_ATOM_HD constexpr std::uint32_t swizzle_atom_aligned(std::uint32_t address) {
  return (address + (kSwizzleAtomBytes - 1)) & ~static_cast<std::uint32_t>(kSwizzleAtomBytes - 1);
}

// What a ring of `stages` tiles that the copy engine fills needs beyond the tiles: one 8-byte
// mbarrier per stage (tma::RingBarriers) and the slack to align the ring's start.
SWIZZLE_ATOM_HD constexpr int copy_engine_ring_extra_bytes(int stages) { return stages * 8 + kSwizzleAtomBytes; }

}  // namespace archbench::kernels
