#include "harness/util/cublas_check.hpp"

#include <map>
#include <memory>

#include "harness/util/cuda_check.hpp"

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
  struct Deleter {
    void operator()(cublasHandle_t h) const { cublasDestroy(h); }
  };
  thread_local std::map<int, std::unique_ptr<cublasContext, Deleter>> handles;
  int device = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  auto& h = handles[device];
  if (!h) {
    cublasHandle_t raw = nullptr;
    ARCHBENCH_CUBLAS_CHECK(cublasCreate(&raw));
    h.reset(raw);
  }
  return h.get();
}

}  // namespace archbench
