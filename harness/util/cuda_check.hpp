// The one checked-call helper: every CUDA runtime / cuBLAS call goes through it, and a failure
// throws with the call's text, where it was made, and the error's name and number.
#pragma once

#include <utility>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace archbench {

class CudaError : public std::runtime_error {
 public:
  CudaError(int code, std::string name, const std::string& what)
      : std::runtime_error(what), code_(code), name_(std::move(name)) {}
  [[nodiscard]] int code() const { return code_; }
  [[nodiscard]] const std::string& name() const { return name_; }

 private:
  int code_;
  std::string name_;
};

// "cudaErrorNoKernelImageForDevice (209): no kernel image is available for execution on the device"
[[nodiscard]] std::string describe_cuda_error(cudaError_t e);

void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line);

// Errors after which the CUDA context is unusable: every later call in this process returns
// them again, so the process must be replaced (illegal address, device-side assert, trap,
// launch failure, ...). "No kernel image" (209) and out-of-memory are not sticky.
[[nodiscard]] bool is_sticky_error(cudaError_t e);

inline void check_cuda(cudaError_t e, const char* call, const char* file, int line) {
  if (e != cudaSuccess) throw_cuda_error(e, call, file, line);
}

}  // namespace archbench

#define ARCHBENCH_CUDA_CHECK(call) ::archbench::check_cuda((call), #call, __FILE__, __LINE__)
// After a <<<>>> launch: the launch error, and under CUDA_LAUNCH_BLOCKING also the kernel's own.
#define ARCHBENCH_CHECK_LAUNCH() ::archbench::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
