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

namespace exp2_polynomial_detail {

// a + b rounded to nearest, which the compiler may not reassociate: nvcc folds (x + k) - k to x
// unless it is told _rn; host code keeps IEEE order without -ffast-math.
EXP2_POLYNOMIAL_HD float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}

// memcpy, not std::bit_cast (the CUDA sources are C++17); nvcc makes it a register move.
EXP2_POLYNOMIAL_HD std::uint32_t bits_of(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

EXP2_POLYNOMIAL_HD float float_of(std::uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace exp2_polynomial_detail

// x is split into n = round(x) and f = x - n in [-0.5, 0.5]; 2^f comes from a degree-2 minimax
// polynomial (relative error 1.8e-3 in float: far below an e4m3 rounding, 2^-4) and n is added to its
// exponent field. Inputs below -125 (the masked keys' -inf included) give about 2^-125, which the
// e4m3 conversion rounds to 0 as it does ex2's 0.
// One body for host and device: the CPU tests check the arithmetic the kernel runs.
EXP2_POLYNOMIAL_HD float exp2_polynomial(float x) {
  using namespace exp2_polynomial_detail;
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: x + kRound holds round(x) in its low bits
  constexpr float c0 = 1.00044310f, c1 = 0.70344490f, c2 = 0.23842676f;
  x = fmaxf(x, -125.0f);
  const float t = add_rn(x, kRound);
  const float f = add_rn(x, -add_rn(t, -kRound));  // x - round(x)
  const float p = fmaf(fmaf(c2, f, c1), f, c0);
  return float_of(bits_of(p) + (bits_of(t) << 23));
}

}  // namespace archbench::kernels::attention
