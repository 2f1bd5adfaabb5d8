#include "kernels/conv/conv_cudnn_legacy.hpp"

#include <cudnn.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/util/cuda_raii.hpp"
#include "harness/vendor/cudnn_check.hpp"
#include "kernels/conv/conv_cudnn.hpp"

namespace archbench::kernels::conv {
namespace {

// Owns one cuDNN descriptor: created in the constructor, destroyed in the destructor.
template <typename Handle, cudnnStatus_t (*Create)(Handle*), cudnnStatus_t (*Destroy)(Handle)>
class Descriptor {
 public:
  Descriptor() { ARCHBENCH_CUDNN_CHECK(Create(&handle_)); }
  ~Descriptor() {
    if (handle_ != nullptr) Destroy(handle_);  // cannot throw from a destructor; nothing to do on failure
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  [[nodiscard]] Handle get() const { return handle_; }

 private:
  Handle handle_ = nullptr;
};

using TensorDescriptor =
    Descriptor<cudnnTensorDescriptor_t, cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor>;
using FilterDescriptor =
    Descriptor<cudnnFilterDescriptor_t, cudnnCreateFilterDescriptor, cudnnDestroyFilterDescriptor>;
using ConvolutionDescriptor =
    Descriptor<cudnnConvolutionDescriptor_t, cudnnCreateConvolutionDescriptor, cudnnDestroyConvolutionDescriptor>;

cudnnMathType_t requested_math(DType math) {
  switch (math) {
    case DType::F32: return CUDNN_FMA_MATH;
    case DType::TF32: return CUDNN_DEFAULT_MATH;
    case DType::F16:
    case DType::BF16:
    case DType::E4M3:
    case DType::E5M2: return CUDNN_TENSOR_OP_MATH;
  }
  return CUDNN_DEFAULT_MATH;
}

bool uses_tensor_ops(cudnnMathType_t m) {
  return m == CUDNN_TENSOR_OP_MATH || m == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
}

std::string algorithm_name(cudnnConvolutionFwdAlgo_t a) {
  switch (a) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "IMPLICIT_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "IMPLICIT_PRECOMP_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "DIRECT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "FFT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "FFT_TILING";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "WINOGRAD";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
    default: return "algo " + std::to_string(static_cast<int>(a));
  }
}

std::string math_name(cudnnMathType_t m) {
  switch (m) {
    case CUDNN_DEFAULT_MATH: return "default math";
    case CUDNN_TENSOR_OP_MATH: return "tensor-op math";
    case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: return "tensor-op math (conversion allowed)";
    case CUDNN_FMA_MATH: return "FMA math";
    default: return "math " + std::to_string(static_cast<int>(m));
  }
}

class CudnnConvLauncher final : public ConvLauncher {
 public:
  CudnnConvLauncher(const ConvDims& d, ConvLayout layout, DType math, size_t max_workspace_bytes,
                    std::string why_backend_not)
      : math_(math), max_workspace_bytes_(max_workspace_bytes), why_backend_not_(std::move(why_backend_not)) {
    const cudnnTensorFormat_t format = layout == ConvLayout::NHWC ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
    const cudnnDataType_t type = cudnn_conv_data_type(math);
    ARCHBENCH_CUDNN_CHECK(cudnnSetTensor4dDescriptor(x_.get(), format, type, d.N, d.C, d.H, d.W));
    ARCHBENCH_CUDNN_CHECK(cudnnSetFilter4dDescriptor(w_.get(), type, format, d.K, d.C, d.R, d.S));
    ARCHBENCH_CUDNN_CHECK(cudnnSetConvolution2dDescriptor(conv_.get(), d.pad, d.pad, d.stride, d.stride, 1, 1,
                                                          CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    ARCHBENCH_CUDNN_CHECK(cudnnSetConvolutionMathType(conv_.get(), requested_math(math)));
    int n = 0, k = 0, p = 0, q = 0;
    ARCHBENCH_CUDNN_CHECK(cudnnGetConvolution2dForwardOutputDim(conv_.get(), x_.get(), w_.get(), &n, &k, &p, &q));
    if (n != d.N || k != d.K || p != d.P() || q != d.Q()) {
      throw std::logic_error("conv cuDNN twin: cuDNN's output shape [" + std::to_string(n) + "," + std::to_string(k) +
                             "," + std::to_string(p) + "," + std::to_string(q) + "] differs from " + d.str() + "'s");
    }
    ARCHBENCH_CUDNN_CHECK(cudnnSetTensor4dDescriptor(y_.get(), format, type, d.N, d.K, p, q));
    choose_algorithm(d);
  }

  void launch(const DeviceTensor& x, const DeviceTensor& w, DeviceTensor& y, cudaStream_t stream) override {
    const cudnnHandle_t h = cudnn_handle();
    ARCHBENCH_CUDNN_CHECK(cudnnSetStream(h, stream));
    const float alpha = 1.0f;
    const float beta = 0.0f;
    ARCHBENCH_CUDNN_CHECK(cudnnConvolutionForward(h, &alpha, x_.get(), x.buffer.get(), w_.get(), w.buffer.get(),
                                                  conv_.get(), algo_, workspace_.get(), workspace_.bytes(), &beta,
                                                  y_.get(), y.buffer.get()));
  }

  [[nodiscard]] std::string implementation() const override {
    return "legacy cudnnConvolutionForward: no backend engine qualified (" + why_backend_not_ + "): " +
           algorithm_name(algo_) + ", " + math_name(math_type_) + ", workspace " +
           std::to_string(workspace_.bytes()) + " B (heuristic rank " + std::to_string(rank_) + ")";
  }

 private:
  // First heuristic result that is supported, fits the workspace limit and keeps the math mode.
  void choose_algorithm(const ConvDims& d) {
    const cudnnHandle_t h = cudnn_handle();
    int max_count = 0;
    ARCHBENCH_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(h, &max_count));
    std::vector<cudnnConvolutionFwdAlgoPerf_t> perf(static_cast<size_t>(max_count > 0 ? max_count : 1));
    int returned = 0;
    ARCHBENCH_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(h, x_.get(), w_.get(), conv_.get(), y_.get(),
                                                                 static_cast<int>(perf.size()), &returned,
                                                                 perf.data()));
    const cudnnConvolutionFwdAlgoPerf_t* chosen = nullptr;
    // tf32: a tensor-op result first (that is the point of the twin); any usable one otherwise.
    for (int pass = 0; pass < 2 && chosen == nullptr; ++pass) {
      for (int i = 0; i < returned && chosen == nullptr; ++i) {
        const auto& r = perf[static_cast<size_t>(i)];
        if (r.status != CUDNN_STATUS_SUCCESS || r.memory > max_workspace_bytes_) continue;
        if (math_ == DType::F32 && uses_tensor_ops(r.mathType)) continue;
        if (math_ == DType::TF32 && pass == 0 && r.mathType == CUDNN_FMA_MATH) continue;
        chosen = &r;
      }
    }
    if (chosen == nullptr) {
      throw LibraryError("cuDNN", "CUDNN_STATUS_NOT_SUPPORTED",
                         "cudnnGetConvolutionForwardAlgorithm_v7 offered no usable forward algorithm for " + d.str() +
                             " (" + std::string(dtype_name(math_)) + ", " + std::to_string(returned) + " results)");
    }
    algo_ = chosen->algo;
    math_type_ = math_ == DType::F32 ? CUDNN_FMA_MATH : chosen->mathType;
    rank_ = static_cast<int>(chosen - perf.data());
    // The algorithm and the math type together select the kernel (cuDNN >= 7.4): run with the
    // math type the heuristic ranked, except that strict f32 stays FMA-only.
    if (math_ != DType::F32) ARCHBENCH_CUDNN_CHECK(cudnnSetConvolutionMathType(conv_.get(), chosen->mathType));
    size_t bytes = 0;
    ARCHBENCH_CUDNN_CHECK(
        cudnnGetConvolutionForwardWorkspaceSize(h, x_.get(), w_.get(), conv_.get(), y_.get(), algo_, &bytes));
    workspace_ = DeviceBuffer(bytes);
  }

  DType math_;
  size_t max_workspace_bytes_;
  std::string why_backend_not_;
  TensorDescriptor x_;
  FilterDescriptor w_;
  TensorDescriptor y_;
  ConvolutionDescriptor conv_;
  cudnnConvolutionFwdAlgo_t algo_ = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  cudnnMathType_t math_type_ = CUDNN_DEFAULT_MATH;
  int rank_ = 0;
  DeviceBuffer workspace_;
};

}  // namespace

std::unique_ptr<ConvLauncher> make_cudnn_legacy_launcher(const ConvDims& d, ConvLayout layout, DType math,
                                                         size_t max_workspace_bytes, std::string why_backend_not) {
  return std::make_unique<CudnnConvLauncher>(d, layout, math, max_workspace_bytes, std::move(why_backend_not));
}

}  // namespace archbench::kernels::conv
