// 2^x on the FMA and integer pipes instead of the SFU: the FP8 flash softmax sends a share of its
// exponentials here, because at twice the 16-bit product rate the SFU's 16 exponentials a clock per
// SM take as long as a key tile's products (docs/kernel-choices.md, "flash_wgmma in FP8"). Host and
// device code: the CPU tests check its error over the range the softmax uses.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define EXP2_POLYNOMIAL_HD __host__ __device__ __forceinline__
#else
#define EXP2_POLYNOMIAL_HD inline
#endif

namespace archbench::kernels::attention {

// x is split into n = round(x) and f = x - n in [-0.5, 0.5]; 2^f comes from a degree-2 minimax
// polynomial (relative error 1.8e-3 in float: far below an e4m3 rounding, 2^-4) and n is added to its
// exponent field. Inputs below -125 (the masked keys' -inf included) give about 2^-125, which the
// e4m3 conversion rounds to 0 as it does ex2's 0.
EXP2_POLYNOMIAL_HD float exp2_polynomial(float x) {
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: x + kRound holds round(x) in its low bits
  constexpr float c0 = 1.00044310f, c1 = 0.70344490f, c2 = 0.23842676f;
#if defined(__CUDA_ARCH__)
  x = fmaxf(x, -125.0f);
  const float t = __fadd_rn(x, kRound);  // _rn: the compiler may not fold (x + kRound) - kRound
  const float f = __fsub_rn(x, __fsub_rn(t, kRound));
  const float p = fmaf(fmaf(c2, f, c1), f, c0);
  return __uint_as_float(__float_as_uint(p) + (__float_as_uint(t) << 23));
#else
  x = std::fmax(x, -125.0f);
  const float t = x + kRound;
  const float f = x - (t - kRound);
  const float p = std::fma(std::fma(c2, f, c1), f, c0);
  std::uint32_t p_bits, t_bits;  // memcpy, not std::bit_cast: the CUDA sources are C++17
  std::memcpy(&p_bits, &p, 4);
  std::memcpy(&t_bits, &t, 4);
  const std::uint32_t bits = p_bits + (t_bits << 23);
  float y;
  std::memcpy(&y, &bits, 4);
  return y;
#endif
}

}  // namespace archbench::kernels::attention
