// The dot product of the float64 references (GEMM rows, convolution taps, attention scores).
#pragma once

#include <cstddef>

namespace archbench {

// sum of a[i] * b[i] over i < n, in four interleaved partial sums: one running sum waits out the
// add latency at every element (1.9x slower at n = 2560 on the development machine's Xeon). The
// order is fixed by n alone, so a reference is the same on any host and core count.
inline double dot(const double* a, const double* b, size_t n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

}  // namespace archbench
