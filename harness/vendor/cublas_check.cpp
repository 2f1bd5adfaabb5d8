#include "harness/vendor/cublas_check.hpp"

#include "harness/util/cuda_check.hpp"
#include "harness/util/device_handle.hpp"

namespace archbench {

void throw_cublas_error(cublasStatus_t s, const char* call, const char* file, int line) {
  const std::string name = cublasGetStatusName(s);
  throw LibraryError("cuBLAS", name,
                     std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " + name + " (" +
                         std::to_string(static_cast<int>(s)) + "): " + cublasGetStatusString(s));
}

std::string cublas_runtime_version() {
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(MINOR_VERSION, &minor) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(PATCH_LEVEL, &patch) != CUBLAS_STATUS_SUCCESS) {
    return "cuBLAS (version unknown)";
  }
  return "cuBLAS " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

cublasHandle_t cublas_handle() {
  return thread_device_handle<cublasContext, &cublasDestroy>(
      [](cublasHandle_t* h) { ARCHBENCH_CUBLAS_CHECK(cublasCreate(h)); });
}

}  // namespace archbench
