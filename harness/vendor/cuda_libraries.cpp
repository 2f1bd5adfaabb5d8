// cuBLAS, cuBLASLt (its FP8 GEMM) and cuDNN, loaded on first use instead of at process start.
// Linking them costs every archbench process about 220 MB and 90 ms before main() (cuBLASLt's and
// cuDNN's load-time work), also `inspect`, `scan`, `list` and `compare`, which never call them; and
// a machine without cuDNN could not start archbench at all. Each function archbench calls is defined here
// with the header's own signature (the headers are included: a mismatch does not build) and
// forwards to the library, opened with dlopen the first time any of its functions is called.
// A new cuBLAS or cuDNN call needs a forwarder here: without one, the link fails.
#include "harness/vendor/cuda_libraries.hpp"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cudnn.h>
#include <dlfcn.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace archbench {
namespace {

class Library {
 public:
  Library(const char* what, const char* soname, const char* configured)
      : what_(what), soname_(soname), configured_(configured) {}

  // The library's handle, opened once: by its soname (the loader's search: LD_LIBRARY_PATH, the
  // cache, the executable's RUNPATH), else at the path configure found.
  void* handle() {
    std::call_once(once_, [this] {
      handle_ = ::dlopen(soname_, RTLD_NOW | RTLD_LOCAL);
      if (handle_ == nullptr) {
        const std::string first = ::dlerror();
        handle_ = ::dlopen(configured_, RTLD_NOW | RTLD_LOCAL);
        if (handle_ == nullptr) {
          error_ = std::string(what_) + " could not be loaded: " + first + "; " + ::dlerror();
        }
      }
    });
    return handle_;
  }
  template <typename F>
  F resolve(const char* name) {
    void* h = handle();
    if (h == nullptr) return nullptr;
    void* f = ::dlsym(h, name);
    if (f == nullptr && error_.empty()) error_ = std::string(what_) + " has no " + name;
    return reinterpret_cast<F>(f);
  }
  const std::string& error() {
    (void)handle();
    return error_;
  }

 private:
  const char* what_;
  const char* soname_;
  const char* configured_;
  std::once_flag once_;
  void* handle_ = nullptr;
  std::string error_;
};

Library cublas("cuBLAS", ARCHBENCH_CUBLAS_SONAME, ARCHBENCH_CUBLAS_PATH);
Library cublaslt("cuBLASLt", ARCHBENCH_CUBLASLT_SONAME, ARCHBENCH_CUBLASLT_PATH);
Library cudnn("cuDNN", ARCHBENCH_CUDNN_SONAME, ARCHBENCH_CUDNN_PATH);

}  // namespace

std::string load_cuda_libraries() {
  std::string errors;
  for (Library* lib : {&cublas, &cublaslt, &cudnn}) {
    if (lib->handle() == nullptr) errors += (errors.empty() ? "" : "; ") + lib->error();
  }
  return errors;
}

void* cudnn_library_handle() { return cudnn.handle(); }

}  // namespace archbench

using archbench::cublas;
using archbench::cublaslt;
using archbench::cudnn;

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t* a0) {
  static const auto real = cublas.resolve<cublasStatus_t (*)(cublasHandle_t*)>("cublasCreate_v2");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0);
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t a0) {
  static const auto real = cublas.resolve<cublasStatus_t (*)(cublasHandle_t)>("cublasDestroy_v2");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0);
}

cublasStatus_t cublasGemmEx(cublasHandle_t a0, cublasOperation_t a1, cublasOperation_t a2, int a3, int a4, int a5, const void* a6, const void* a7, cudaDataType a8, int a9, const void* a10, cudaDataType a11, int a12, const void* a13, void* a14, cudaDataType a15, int a16, cublasComputeType_t a17, cublasGemmAlgo_t a18) {
  static const auto real = cublas.resolve<cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t)>("cublasGemmEx");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18);
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t a0, cublasOperation_t a1, cublasOperation_t a2, int a3, int a4, int a5, const void* a6, const void* a7, cudaDataType a8, int a9, long long int a10, const void* a11, cudaDataType a12, int a13, long long int a14, const void* a15, void* a16, cudaDataType a17, int a18, long long int a19, int a20, cublasComputeType_t a21, cublasGemmAlgo_t a22) {
  static const auto real = cublas.resolve<cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, const void*, cudaDataType, int, long long int, const void*, cudaDataType, int, long long int, const void*, void*, cudaDataType, int, long long int, int, cublasComputeType_t, cublasGemmAlgo_t)>("cublasGemmStridedBatchedEx");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22);
}

size_t cublasGetCudartVersion(void) {
  static const auto real = cublas.resolve<size_t (*)()>("cublasGetCudartVersion");
  return real == nullptr ? 0 : real();
}

cublasStatus_t cublasGetProperty(libraryPropertyType a0, int* a1) {
  static const auto real = cublas.resolve<cublasStatus_t (*)(libraryPropertyType, int*)>("cublasGetProperty");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0, a1);
}

const char* cublasGetStatusName(cublasStatus_t a0) {
  static const auto real = cublas.resolve<const char* (*)(cublasStatus_t)>("cublasGetStatusName");
  return real == nullptr ? cublas.error().c_str() : real(a0);
}

const char* cublasGetStatusString(cublasStatus_t a0) {
  static const auto real = cublas.resolve<const char* (*)(cublasStatus_t)>("cublasGetStatusString");
  return real == nullptr ? cublas.error().c_str() : real(a0);
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t a0, cudaStream_t a1) {
  static const auto real = cublas.resolve<cublasStatus_t (*)(cublasHandle_t, cudaStream_t)>("cublasSetStream_v2");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0, a1);
}

cublasStatus_t cublasLtCreate(cublasLtHandle_t* a0) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtHandle_t*)>("cublasLtCreate");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0);
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t a0) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtHandle_t)>("cublasLtDestroy");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0);
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t a0, cublasLtMatmulDesc_t a1, const void* a2, const void* a3, cublasLtMatrixLayout_t a4, const void* a5, cublasLtMatrixLayout_t a6, const void* a7, const void* a8, cublasLtMatrixLayout_t a9, void* a10, cublasLtMatrixLayout_t a11, const cublasLtMatmulAlgo_t* a12, void* a13, size_t a14, cudaStream_t a15) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtHandle_t, cublasLtMatmulDesc_t, const void*, const void*, cublasLtMatrixLayout_t, const void*, cublasLtMatrixLayout_t, const void*, const void*, cublasLtMatrixLayout_t, void*, cublasLtMatrixLayout_t, const cublasLtMatmulAlgo_t*, void*, size_t, cudaStream_t)>("cublasLtMatmul");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15);
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t a0, cublasLtMatmulDesc_t a1, cublasLtMatrixLayout_t a2, cublasLtMatrixLayout_t a3, cublasLtMatrixLayout_t a4, cublasLtMatrixLayout_t a5, cublasLtMatmulPreference_t a6, int a7, cublasLtMatmulHeuristicResult_t* a8, int* a9) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatmulPreference_t, int, cublasLtMatmulHeuristicResult_t*, int*)>("cublasLtMatmulAlgoGetHeuristic");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* a0, cublasComputeType_t a1, cudaDataType_t a2) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtMatmulDesc_t*, cublasComputeType_t, cudaDataType_t)>("cublasLtMatmulDescCreate");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0, a1, a2);
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t a0) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtMatmulDesc_t)>("cublasLtMatmulDescDestroy");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0);
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t a0, cublasLtMatmulDescAttributes_t a1, const void* a2, size_t a3) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtMatmulDesc_t, cublasLtMatmulDescAttributes_t, const void*, size_t)>("cublasLtMatmulDescSetAttribute");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3);
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* a0) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtMatmulPreference_t*)>("cublasLtMatmulPreferenceCreate");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0);
}

cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t a0) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtMatmulPreference_t)>("cublasLtMatmulPreferenceDestroy");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0);
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t a0, cublasLtMatmulPreferenceAttributes_t a1, const void* a2, size_t a3) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtMatmulPreference_t, cublasLtMatmulPreferenceAttributes_t, const void*, size_t)>("cublasLtMatmulPreferenceSetAttribute");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3);
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* a0, cudaDataType a1, uint64_t a2, uint64_t a3, int64_t a4) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtMatrixLayout_t*, cudaDataType, uint64_t, uint64_t, int64_t)>("cublasLtMatrixLayoutCreate");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4);
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t a0) {
  static const auto real = cublaslt.resolve<cublasStatus_t (*)(cublasLtMatrixLayout_t)>("cublasLtMatrixLayoutDestroy");
  return real == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnBackendCreateDescriptor(cudnnBackendDescriptorType_t a0, cudnnBackendDescriptor_t * a1) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnBackendDescriptorType_t, cudnnBackendDescriptor_t *)>("cudnnBackendCreateDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1);
}

cudnnStatus_t cudnnBackendDestroyDescriptor(cudnnBackendDescriptor_t a0) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnBackendDescriptor_t)>("cudnnBackendDestroyDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnBackendExecute(cudnnHandle_t a0, cudnnBackendDescriptor_t a1, cudnnBackendDescriptor_t a2) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnHandle_t, cudnnBackendDescriptor_t, cudnnBackendDescriptor_t)>("cudnnBackendExecute");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1, a2);
}

cudnnStatus_t cudnnBackendFinalize(cudnnBackendDescriptor_t a0) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnBackendDescriptor_t)>("cudnnBackendFinalize");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnBackendGetAttribute(cudnnBackendDescriptor_t const a0, cudnnBackendAttributeName_t a1, cudnnBackendAttributeType_t a2, int64_t a3, int64_t * a4, void * a5) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnBackendDescriptor_t const, cudnnBackendAttributeName_t, cudnnBackendAttributeType_t, int64_t, int64_t *, void *)>("cudnnBackendGetAttribute");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5);
}

cudnnStatus_t cudnnBackendSetAttribute(cudnnBackendDescriptor_t a0, cudnnBackendAttributeName_t a1, cudnnBackendAttributeType_t a2, int64_t a3, const void * a4) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnBackendDescriptor_t, cudnnBackendAttributeName_t, cudnnBackendAttributeType_t, int64_t, const void *)>("cudnnBackendSetAttribute");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4);
}

cudnnStatus_t cudnnConvolutionForward(cudnnHandle_t a0, const void * a1, const cudnnTensorDescriptor_t a2, const void * a3, const cudnnFilterDescriptor_t a4, const void * a5, const cudnnConvolutionDescriptor_t a6, cudnnConvolutionFwdAlgo_t a7, void * a8, size_t a9, const void * a10, const cudnnTensorDescriptor_t a11, void * a12) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnHandle_t, const void *, const cudnnTensorDescriptor_t, const void *, const cudnnFilterDescriptor_t, const void *, const cudnnConvolutionDescriptor_t, cudnnConvolutionFwdAlgo_t, void *, size_t, const void *, const cudnnTensorDescriptor_t, void *)>("cudnnConvolutionForward");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12);
}

cudnnStatus_t cudnnCreate(cudnnHandle_t * a0) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnHandle_t *)>("cudnnCreate");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnCreateConvolutionDescriptor(cudnnConvolutionDescriptor_t * a0) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnConvolutionDescriptor_t *)>("cudnnCreateConvolutionDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnCreateFilterDescriptor(cudnnFilterDescriptor_t * a0) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnFilterDescriptor_t *)>("cudnnCreateFilterDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t * a0) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnTensorDescriptor_t *)>("cudnnCreateTensorDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnDestroy(cudnnHandle_t a0) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnHandle_t)>("cudnnDestroy");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnDestroyConvolutionDescriptor(cudnnConvolutionDescriptor_t a0) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnConvolutionDescriptor_t)>("cudnnDestroyConvolutionDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnDestroyFilterDescriptor(cudnnFilterDescriptor_t a0) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnFilterDescriptor_t)>("cudnnDestroyFilterDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnDestroyTensorDescriptor(cudnnTensorDescriptor_t a0) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnTensorDescriptor_t)>("cudnnDestroyTensorDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0);
}

cudnnStatus_t cudnnGetConvolution2dForwardOutputDim(const cudnnConvolutionDescriptor_t a0, const cudnnTensorDescriptor_t a1, const cudnnFilterDescriptor_t a2, int * a3, int * a4, int * a5, int * a6) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(const cudnnConvolutionDescriptor_t, const cudnnTensorDescriptor_t, const cudnnFilterDescriptor_t, int *, int *, int *, int *)>("cudnnGetConvolution2dForwardOutputDim");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6);
}

cudnnStatus_t cudnnGetConvolutionForwardAlgorithmMaxCount(cudnnHandle_t a0, int * a1) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnHandle_t, int *)>("cudnnGetConvolutionForwardAlgorithmMaxCount");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1);
}

cudnnStatus_t cudnnGetConvolutionForwardAlgorithm_v7(cudnnHandle_t a0, const cudnnTensorDescriptor_t a1, const cudnnFilterDescriptor_t a2, const cudnnConvolutionDescriptor_t a3, const cudnnTensorDescriptor_t a4, const int a5, int * a6, cudnnConvolutionFwdAlgoPerf_t * a7) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnHandle_t, const cudnnTensorDescriptor_t, const cudnnFilterDescriptor_t, const cudnnConvolutionDescriptor_t, const cudnnTensorDescriptor_t, const int, int *, cudnnConvolutionFwdAlgoPerf_t *)>("cudnnGetConvolutionForwardAlgorithm_v7");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6, a7);
}

cudnnStatus_t cudnnGetConvolutionForwardWorkspaceSize(cudnnHandle_t a0, const cudnnTensorDescriptor_t a1, const cudnnFilterDescriptor_t a2, const cudnnConvolutionDescriptor_t a3, const cudnnTensorDescriptor_t a4, cudnnConvolutionFwdAlgo_t a5, size_t * a6) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnHandle_t, const cudnnTensorDescriptor_t, const cudnnFilterDescriptor_t, const cudnnConvolutionDescriptor_t, const cudnnTensorDescriptor_t, cudnnConvolutionFwdAlgo_t, size_t *)>("cudnnGetConvolutionForwardWorkspaceSize");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6);
}

size_t cudnnGetCudartVersion(void) {
  static const auto real = cudnn.resolve<size_t (*)()>("cudnnGetCudartVersion");
  return real == nullptr ? 0 : real();
}

const char * cudnnGetErrorString(cudnnStatus_t a0) {
  static const auto real = cudnn.resolve<const char * (*)(cudnnStatus_t)>("cudnnGetErrorString");
  return real == nullptr ? cudnn.error().c_str() : real(a0);
}

void cudnnGetLastErrorString(char * a0, size_t a1) {
  static const auto real = cudnn.resolve<void (*)(char *, size_t)>("cudnnGetLastErrorString");
  if (real == nullptr) {
    if (a1 > 0) std::snprintf(a0, a1, "%s", cudnn.error().c_str());
    return;
  }
  real(a0, a1);
}

size_t cudnnGetVersion(void) {
  static const auto real = cudnn.resolve<size_t (*)()>("cudnnGetVersion");
  return real == nullptr ? 0 : real();
}

cudnnStatus_t cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t a0, int a1, int a2, int a3, int a4, int a5, int a6, cudnnConvolutionMode_t a7, cudnnDataType_t a8) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnConvolutionDescriptor_t, int, int, int, int, int, int, cudnnConvolutionMode_t, cudnnDataType_t)>("cudnnSetConvolution2dDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6, a7, a8);
}

cudnnStatus_t cudnnSetConvolutionMathType(cudnnConvolutionDescriptor_t a0, cudnnMathType_t a1) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnConvolutionDescriptor_t, cudnnMathType_t)>("cudnnSetConvolutionMathType");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1);
}

cudnnStatus_t cudnnSetFilter4dDescriptor(cudnnFilterDescriptor_t a0, cudnnDataType_t a1, cudnnTensorFormat_t a2, int a3, int a4, int a5, int a6) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnFilterDescriptor_t, cudnnDataType_t, cudnnTensorFormat_t, int, int, int, int)>("cudnnSetFilter4dDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6);
}

cudnnStatus_t cudnnSetStream(cudnnHandle_t a0, cudaStream_t a1) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnHandle_t, cudaStream_t)>("cudnnSetStream");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1);
}

cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t a0, cudnnTensorFormat_t a1, cudnnDataType_t a2, int a3, int a4, int a5, int a6) {
  static const auto real = cudnn.resolve<cudnnStatus_t (*)(cudnnTensorDescriptor_t, cudnnTensorFormat_t, cudnnDataType_t, int, int, int, int)>("cudnnSetTensor4dDescriptor");
  return real == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : real(a0, a1, a2, a3, a4, a5, a6);
}
}  // extern "C"
