// The cuDNN twins conv_cudnn_nhwc / conv_cudnn_nchw: cuDNN's convolution forward on one shape,
// layout and dtype. They run through cuDNN's backend (graph) API, built with cudnn-frontend's
// descriptor builders as PyTorch's cuDNN convolution builds it, with one engine config chosen
// deterministically from the heuristics' list (conv_cudnn_graph.hpp, conv_engine_choice.hpp), so
// that the engine, its knobs and its workspace are named in implementation() and pinned for the
// process; when no backend engine qualifies on this device, through the legacy
// cudnnConvolutionForward (conv_cudnn_legacy.hpp), which says so in implementation().
#pragma once

#include <cudnn.h>

#include <cstddef>
#include <memory>

#include "harness/ops/dtype.hpp"
#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_problem.hpp"

namespace archbench::kernels::conv {

// The data type of x, w and y for the operator's dtype (tf32 is fp32 data; the math is the engine's);
// std::invalid_argument for a dtype the twins do not have (e4m3).
[[nodiscard]] cudnnDataType_t cudnn_conv_data_type(DType math);

// The workspace either path may take (the legacy twin's limit, kept).
inline constexpr size_t kCudnnConvMaxWorkspaceBytes = size_t{512} << 20;

// Builds the plan (or the legacy descriptors and algorithm) and the workspace, once: call it in
// make_problem. Needs the device; throws LibraryError when neither path works.
[[nodiscard]] std::unique_ptr<ConvLauncher> make_cudnn_launcher(const ConvDims& d, ConvLayout layout, DType math);

}  // namespace archbench::kernels::conv
