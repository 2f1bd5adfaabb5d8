#include "harness/util/cuda_check.hpp"

namespace archbench {

std::string describe_cuda_error(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + std::to_string(static_cast<int>(e)) + "): " + cudaGetErrorString(e);
}

void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line) {
  // A failed call also leaves its error as the thread's "last error"; a non-sticky one (out of
  // memory, invalid value, no kernel image) would then surface at the next operator's launch
  // check and be blamed on it. This error is reported here, so clear it.
  if (!is_sticky_error(e)) (void)cudaGetLastError();
  throw CudaError(static_cast<int>(e), cudaGetErrorName(e),
                  std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " + describe_cuda_error(e));
}

bool is_sticky_error(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorTensorMemoryLeak:
    case cudaErrorContained:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

}  // namespace archbench
