// Checked cuDNN calls: a failure throws LibraryError with the status name (for example
// CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH), which becomes a library operator's verdict.
#pragma once

#include <cudnn.h>

#include <string>

#include "harness/vendor/cublas_check.hpp"  // LibraryError

namespace archbench {

[[noreturn]] void throw_cudnn_error(cudnnStatus_t s, const char* call, const char* file, int line);

inline void check_cudnn(cudnnStatus_t s, const char* call, const char* file, int line) {
  if (s != CUDNN_STATUS_SUCCESS) throw_cudnn_error(s, call, file, line);
}

// "cuDNN 9.14.0" as loaded at run time (not the headers).
[[nodiscard]] std::string cudnn_runtime_version();

// One handle per thread and device, created on first use. Callers set the stream
// (cudnnSetStream) before every call: the handle is shared.
[[nodiscard]] cudnnHandle_t cudnn_handle();

}  // namespace archbench

#define ARCHBENCH_CUDNN_CHECK(call) ::archbench::check_cudnn((call), #call, __FILE__, __LINE__)
