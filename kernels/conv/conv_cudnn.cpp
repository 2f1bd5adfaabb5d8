#include "kernels/conv/conv_cudnn.hpp"

#include <cstdint>
#include <string>
#include <utility>

#include "kernels/conv/conv_cudnn_graph.hpp"
#include "kernels/conv/conv_cudnn_legacy.hpp"

namespace archbench::kernels::conv {

std::unique_ptr<ConvLauncher> make_cudnn_launcher(const ConvDims& d, ConvLayout layout, DType math) {
  std::string why_not;
  auto graph = make_cudnn_graph_launcher(d, layout, math, static_cast<int64_t>(kCudnnConvMaxWorkspaceBytes), why_not);
  if (graph) return graph;
  return make_cudnn_legacy_launcher(d, layout, math, kCudnnConvMaxWorkspaceBytes, std::move(why_not));
}

}  // namespace archbench::kernels::conv
