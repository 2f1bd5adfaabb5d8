#include "harness/vendor/cudnn_check.hpp"

#include "harness/util/cuda_check.hpp"
#include "harness/util/device_handle.hpp"

namespace archbench {

void throw_cudnn_error(cudnnStatus_t s, const char* call, const char* file, int line) {
  // cudnnGetLastErrorString carries the reason behind NOT_SUPPORTED and BAD_PARAM statuses.
  char detail[512] = {};
  cudnnGetLastErrorString(detail, sizeof detail);
  const std::string name = cudnnGetErrorString(s);
  std::string what = std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " + name + " (" +
                     std::to_string(static_cast<int>(s)) + ")";
  if (detail[0] != '\0') what += ": " + std::string(detail);
  throw LibraryError("cuDNN", name, what);
}

std::string cudnn_runtime_version() {
  const size_t v = cudnnGetVersion();  // major*10000 + minor*100 + patch since cuDNN 9
  return "cuDNN " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

cudnnHandle_t cudnn_handle() {
  return thread_device_handle<cudnnContext, &cudnnDestroy>(
      [](cudnnHandle_t* h) { ARCHBENCH_CUDNN_CHECK(cudnnCreate(h)); });
}

}  // namespace archbench
