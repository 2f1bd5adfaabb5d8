// Split-K epilogue of the own convolution kernels: adds the fp32 partial sums of every slice of
// the reduction and rounds once to the output type (see conv_kernels.hpp). Memory-bound and
// small (the workspace is at most kMaxSplits x M x K floats and mostly still in L2).
#include "kernels/conv/conv_kernels.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "harness/util/cuda_check.hpp"
#include "kernels/common/convert.cuh"

namespace archbench::kernels::conv {
namespace {

constexpr int kThreads = 256;
constexpr std::size_t kMaxBlocks = 8192;  // grid-stride beyond this

// Thread i adds slices 0..splits-1 of element i in a fixed order (deterministic results);
// consecutive threads read consecutive floats of each slice.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    conv_splitk_reduce(const float* __restrict__ partial, T* __restrict__ y, std::size_t count, int splits) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    float sum = 0.0f;
    for (int z = 0; z < splits; ++z) {
      sum += partial[static_cast<std::size_t>(z) * count + i];
    }
    y[i] = from_float<T>(sum);
  }
}

}  // namespace

void launch_conv_splitk_reduce(DType dtype, const float* partial, void* y, std::size_t count, int splits,
                               cudaStream_t stream) {
  if (partial == nullptr || y == nullptr || splits < 1) {
    throw std::invalid_argument("launch_conv_splitk_reduce: needs a workspace, an output and splits >= 1 (got " +
                                std::to_string(splits) + ")");
  }
  if (count == 0) return;
  const auto blocks = static_cast<unsigned>(std::min(kMaxBlocks, (count + kThreads - 1) / kThreads));
  dispatch_storage(dtype, [&](auto element) {
    using T = decltype(element);
    conv_splitk_reduce<T><<<blocks, kThreads, 0, stream>>>(partial, static_cast<T*>(y), count, splits);
    ARCHBENCH_CHECK_LAUNCH();
  });
}

const void* conv_splitk_reduce_kernel(DType dtype) {
  return storage_kernel(dtype, [](auto element) { return &conv_splitk_reduce<decltype(element)>; });
}

}  // namespace archbench::kernels::conv
