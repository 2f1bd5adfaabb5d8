// Tensor maps for the tensor memory accelerator (TMA, sm_90 and newer) of the kernels that use
// it: 16-bit or FP8 elements, swizzled shared-memory boxes (128-byte unless asked otherwise), elements
// outside the tensor read as zero and are not written. Host code; plain C++17 (the .cu files that
// use it are compiled as C++17).
#pragma once

#include <cuda.h>  // CUtensorMap and its enums only: the driver is reached through the runtime
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace archbench::kernels {

// cuTensorMapEncodeTiled through the runtime's driver entry point (libcuda is not linked) for a
// tensor of `rank` (1 to 5) dimensions at `base`: dims[rank] and box[rank] innermost first,
// byte_strides[rank - 1] for every dimension but the innermost (which is dense). Throws
// std::runtime_error naming `what` on failure. The box's innermost extent must fit the swizzle
// span (64 halves for 128-byte swizzle, 32 for 64-byte). element_strides[rank] (null: all 1) makes
// the copy take every element_strides[i]-th element along dimension i (i > 0): box[i] / element_strides[i]
// of them, as a strided convolution reads its input.
[[nodiscard]] CUtensorMap swizzled_tensor_map(CUtensorMapDataType type, const void* base, int rank,
                                              const cuuint64_t* dims, const cuuint64_t* byte_strides,
                                              const cuuint32_t* box, const char* what,
                                              CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B,
                                              const cuuint32_t* element_strides = nullptr);

// The element type of a tensor of T: __half, __nv_bfloat16, float, or an FP8 type (copied as bytes).
template <typename T>
[[nodiscard]] constexpr CUtensorMapDataType tensor_map_data_type() {
  static_assert(std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __nv_fp8_e4m3> ||
                    std::is_same_v<T, __nv_fp8_e5m2> || std::is_same_v<T, float>,
                "16-bit, FP8 or fp32 (split-K partials) elements only");
  if constexpr (std::is_same_v<T, float>) return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  if constexpr (std::is_same_v<T, __half>) return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

// A row-major [rows, cols] matrix of T (rows cols * sizeof(T) bytes apart, a multiple of 16) read
// or written in boxes of box_rows x box_cols, swizzled over the box's row: box_cols * sizeof(T) must
// be 128 or 64 bytes (the 128- or 64-byte swizzle, which the tiles in shared memory then follow).
template <typename T>
[[nodiscard]] CUtensorMap matrix_tensor_map(const T* base, long long rows, long long cols, int box_rows, int box_cols,
                                            const char* what) {
  const auto row_bytes = static_cast<long long>(box_cols) * static_cast<long long>(sizeof(T));
  const CUtensorMapSwizzle swizzle = row_bytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_stride[1] = {static_cast<cuuint64_t>(cols) * sizeof(T)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  if (row_bytes != 128 && row_bytes != 64) {
    throw std::invalid_argument(std::string(what) + ": a swizzled box row is 64 or 128 bytes, not " +
                                std::to_string(row_bytes));
  }
  return swizzled_tensor_map(tensor_map_data_type<T>(), base, 2, dims, row_stride, box, what, swizzle);
}

}  // namespace archbench::kernels
