// Tensor maps for the tensor memory accelerator (TMA) of the sm_90a kernels: 16-bit elements,
// 128-byte swizzle, elements outside the tensor read as zero. Host code; plain C++17 (the .cu
// files that use it are compiled as C++17).
#pragma once

#include <cuda.h>  // CUtensorMap and its enums only: the driver is reached through the runtime


namespace archbench::kernels {

// cuTensorMapEncodeTiled through the runtime's driver entry point (libcuda is not linked) for a
// tensor of `rank` (1 to 5) dimensions at `base`: dims[rank] and box[rank] innermost first,
// byte_strides[rank - 1] for every dimension but the innermost (which is dense). Throws
// std::runtime_error naming `what` on failure.
[[nodiscard]] CUtensorMap swizzled_tensor_map(CUtensorMapDataType type, const void* base, int rank,
                                              const cuuint64_t* dims, const cuuint64_t* byte_strides,
                                              const cuuint32_t* box, const char* what);

}  // namespace archbench::kernels
