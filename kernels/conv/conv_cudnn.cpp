#include "kernels/conv/conv_cudnn.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/conv/conv_cudnn_graph.hpp"
#include "kernels/conv/conv_cudnn_legacy.hpp"

namespace archbench::kernels::conv {

cudnnDataType_t cudnn_conv_data_type(DType math) {
  switch (math) {
    case DType::F32:
    case DType::TF32: return CUDNN_DATA_FLOAT;
    case DType::F16: return CUDNN_DATA_HALF;
    case DType::BF16: return CUDNN_DATA_BFLOAT16;
    case DType::E4M3:
    case DType::E5M2: break;
  }
  throw std::invalid_argument("conv cuDNN twin: f32, tf32, f16 or bf16 (got " + std::string(dtype_name(math)) + ")");
}

std::unique_ptr<ConvLauncher> make_cudnn_launcher(const ConvDims& d, ConvLayout layout, DType math) {
  std::string why_not;
  auto graph = make_cudnn_graph_launcher(d, layout, math, static_cast<int64_t>(kCudnnConvMaxWorkspaceBytes), why_not);
  if (graph) return graph;
  return make_cudnn_legacy_launcher(d, layout, math, kCudnnConvMaxWorkspaceBytes, std::move(why_not));
}

}  // namespace archbench::kernels::conv
