// The cuDNN convolution twins on cuDNN's backend (graph) API through cudnn-frontend's descriptor
// builders, as PyTorch's cuDNN convolution builds them: an operation graph of one forward
// convolution (x, w, y in the operator's layout through their strides; cross-correlation, the
// shape's padding and stride, no dilation, fp32 compute), the engine configs of the heuristics
// (mode A), and ONE of them chosen by choose_engine (conv_engine_choice.hpp), so that the engine
// that runs is named and the same in every process that gets the same heuristic list. The plan,
// its workspace and the variant pack are built once per problem; launch() sets the stream and
// executes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/ops/dtype.hpp"
#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_problem.hpp"

namespace archbench::kernels::conv {

// The backend tensors of one convolution. cuDNN's convolution takes every tensor in the logical
// order [N, C, H, W] (filter [K, C, R, S], output [N, K, P, Q]); the layout is in the strides:
// NHWC / KRSC / NPQK channels-last, NCHW / KCRS / NKPQ packed row-major.
struct ConvGraphTensors {
  using Dims4 = std::array<int64_t, 4>;
  Dims4 x_dims, x_strides;
  Dims4 w_dims, w_strides;
  Dims4 y_dims, y_strides;
};
[[nodiscard]] ConvGraphTensors conv_graph_tensors(const ConvDims& d, ConvLayout layout);

// Builds and finalizes the tensors, the convolution descriptor and the forward operation without a
// handle: what a machine without a GPU can check of the descriptors. Returns the number of
// operations (1); throws LibraryError like the twin does.
[[nodiscard]] size_t build_conv_operation_without_device(const ConvDims& d, ConvLayout layout, DType math);

// The twin's launcher on the backend API, or nullptr with `why_not` set when no engine config
// qualifies or a step of the graph fails on this device (LibraryError from cuDNN): the caller then
// falls back to the legacy API. Its implementation() reads, for example, "cuDNN graph:
// eng17_k2=3_k3=4 (heuristic rank 2 of 9), notes TENSOR_CORE, workspace 0 B": the engine's global
// index and its knob choices (cudnnBackendKnobType_t numbers), as cudnn-frontend tags them.
// Needs the device; a CUDA error (allocation) still throws.
[[nodiscard]] std::unique_ptr<ConvLauncher> make_cudnn_graph_launcher(const ConvDims& d, ConvLayout layout,
                                                                      DType math, int64_t max_workspace_bytes,
                                                                      std::string& why_not);

}  // namespace archbench::kernels::conv
