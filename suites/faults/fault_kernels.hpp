// Kernels that fail on purpose (test executables only).
#pragma once

#include <cstddef>
#include <cuda_runtime.h>

namespace archbench::faults {

enum class Fault { None, OutOfBounds, Trap, Spin };

[[nodiscard]] const void* kernel_stub(Fault f);
// `in` and `out` hold n floats; `zero_flag` points to a device int that is 0.
void launch(Fault f, const float* in, const int* zero_flag, float* out, size_t n, cudaStream_t s);

}  // namespace archbench::faults
