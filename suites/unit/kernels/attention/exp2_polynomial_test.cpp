// exp2_polynomial, the FP8 flash softmax's exponential on the FMA pipe: its error over the range the
// softmax feeds it (x = s·scale - max + 8 <= 8) and what it gives for masked keys.
#include "kernels/attention/exp2_polynomial.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace archbench::kernels::attention {
namespace {

TEST(Exp2Polynomial, RelativeErrorStaysFarBelowAnE4m3Rounding) {
  double worst = 0.0;
  for (int i = 0; i <= 1'330'000; ++i) {
    const float x = -125.0f + static_cast<float>(i) * 1e-4f;  // up to 8: P·256 at the row maximum
    const double exact = std::exp2(static_cast<double>(x));
    worst = std::max(worst, std::abs(static_cast<double>(exp2_polynomial(x)) - exact) / exact);
  }
  EXPECT_LT(worst, 1.8e-3);
  EXPECT_GT(worst, 1e-4);  // a degree-2 polynomial: exactness would mean ex2 was called after all
}

TEST(Exp2Polynomial, IsExactEnoughAtIntegersAndMonotoneAcrossTheirSplit) {
  for (int n = -124; n <= 8; ++n) {
    const float x = static_cast<float>(n);
    EXPECT_NEAR(exp2_polynomial(x) / std::ldexp(1.0f, n), 1.0f, 5e-4f) << "x = " << n;
    // Either side of n + 0.5, where round(x) changes, the two branches of the fit meet.
    const float below = exp2_polynomial(x + 0.4999f), above = exp2_polynomial(x + 0.5001f);
    EXPECT_GT(above, below) << "x = " << n << ".5";
    EXPECT_LT(above / below - 1.0f, 4e-3f) << "x = " << n << ".5";
  }
}

TEST(Exp2Polynomial, MaskedAndVeryNegativeInputsGiveATinyPositiveNumber) {
  const float tiny = std::ldexp(1.0f, -124);
  for (const float x : {-std::numeric_limits<float>::infinity(), -1e30f, -200.0f, -125.5f}) {
    const float y = exp2_polynomial(x);
    EXPECT_GE(y, 0.0f) << "x = " << x;
    EXPECT_LT(y, tiny) << "x = " << x;
  }
}

}  // namespace
}  // namespace archbench::kernels::attention
