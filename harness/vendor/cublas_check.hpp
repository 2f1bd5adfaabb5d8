// Checked cuBLAS calls: a failure throws LibraryError with the status name (for example
// CUBLAS_STATUS_ARCH_MISMATCH), which becomes a library operator's verdict.
#pragma once

#include <utility>
#include <cublas_v2.h>

#include <stdexcept>
#include <string>

namespace archbench {

class LibraryError : public std::runtime_error {
 public:
  LibraryError(std::string library, std::string status, const std::string& what)
      : std::runtime_error(what), library_(std::move(library)), status_(std::move(status)) {}
  [[nodiscard]] const std::string& library() const { return library_; }
  [[nodiscard]] const std::string& status() const { return status_; }

 private:
  std::string library_;
  std::string status_;
};

void throw_cublas_error(cublasStatus_t s, const char* call, const char* file, int line);

inline void check_cublas(cublasStatus_t s, const char* call, const char* file, int line) {
  if (s != CUBLAS_STATUS_SUCCESS) throw_cublas_error(s, call, file, line);
}

// "cuBLAS 13.1.0" as loaded at run time (not the headers).
[[nodiscard]] std::string cublas_runtime_version();

// One handle per thread and device, created on first use.
[[nodiscard]] cublasHandle_t cublas_handle();

}  // namespace archbench

#define ARCHBENCH_CUBLAS_CHECK(call) ::archbench::check_cublas((call), #call, __FILE__, __LINE__)
