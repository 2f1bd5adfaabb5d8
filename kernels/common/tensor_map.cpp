#include "kernels/common/tensor_map.hpp"

#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <array>
#include <stdexcept>
#include <string>

#include "harness/util/cuda_check.hpp"

namespace archbench::kernels {
namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  // Version 12000 pins the function's ABI (the unversioned entry point query is deprecated).
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    ARCHBENCH_CUDA_CHECK(
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || p == nullptr) {
      throw std::runtime_error("the driver has no cuTensorMapEncodeTiled (query result " +
                               std::to_string(static_cast<int>(found)) + ")");
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

}  // namespace

CUtensorMap swizzled_tensor_map(CUtensorMapDataType type, const void* base, int rank, const cuuint64_t* dims,
                                const cuuint64_t* byte_strides, const cuuint32_t* box, const char* what,
                                CUtensorMapSwizzle swizzle, const cuuint32_t* element_strides) {
  if (rank < 1 || rank > 5) throw std::invalid_argument(std::string(what) + ": a tensor map has 1 to 5 dimensions");
  const std::array<cuuint32_t, 5> unit_strides{1, 1, 1, 1, 1};
  CUtensorMap map{};
  const CUresult r = encode_tiled()(&map, type, static_cast<cuuint32_t>(rank), const_cast<void*>(base), dims,
                                    byte_strides, box, element_strides != nullptr ? element_strides : unit_strides.data(),
                                    CU_TENSOR_MAP_INTERLEAVE_NONE,
                                    swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": cuTensorMapEncodeTiled failed (CUresult " + std::to_string(r) + ")");
  }
  return map;
}

}  // namespace archbench::kernels
