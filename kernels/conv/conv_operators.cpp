// The convolution family: 2-D cross-correlation as nn.Conv2d computes it (no bias, no dilation,
// zero padding), at the shapes of docs/reference/workload.md, "The operator set" (conv row).
//
// Operators (id = conv/<name>/<dtype>/<shape>):
//   conv_tc          own implicit GEMM on the tensor cores (mma.sync m16n8k16, fp32 accumulate,
//                    multi-stage cp.async pipeline, block-tile variants chosen by shape, sliced K
//                    and split-K for shapes with few output tiles; conv_tc.cu);
//                    f16, bf16; NHWC; CC >= 8.0. All 8 shapes. Its oracle twin is
//                    conv_cudnn_nhwc at the same dtype and shape.
//   conv_wgmma       own implicit GEMM for Hopper (sm_90a): wgmma fed by the copy engine, each tile
//                    of output pixels one 4-D box of the input per filter tap (conv_wgmma.cu);
//                    f16, bf16; NHWC; CC 9.0 exactly. Every shape but conv_in (C = 4 is no
//                    64-channel slice); checked at its own check shape (conv_wgmma_geometry.hpp),
//                    so it has no oracle twin.
//   conv_simt        own implicit GEMM on the SIMT cores, f32; NHWC; any CC. Rows 1, 5, 6, 7.
//   conv_cudnn_nhwc  cuDNN (backend graph API through cudnn-frontend: one engine config of the
//                    heuristics, chosen deterministically and named in implementation(); the legacy
//                    cudnnConvolutionForward only when no backend engine qualifies) on NHWC: f16 and
//                    bf16 at all 8 shapes; f32 (FMA only) and tf32 (TF32 tensor cores) at rows 1, 5, 6, 7.
//   conv_cudnn_nchw  cuDNN, the same way, on NCHW, the PyTorch default layout (the layout is in the
//                    tensors' strides; cuDNN picks engines for it):
//                    f32, tf32, f16, bf16 at rows 1, 5, 6, 7.
// The f32/tf32 and NCHW variants keep to the four rows that span the kinds of convolution (3x3
// stride 1, 3x3 stride 2, 1x1, the 4-channel conv_in), to keep the operator count and CI time
// sane.
//
// Layouts: "nhwc" means activations x[N][H][W][C], filter w[K][R][S][C] (KRSC, cuDNN's NHWC
// filter format) and output y[N][P][Q][K]; "nchw" means x[N][C][H][W], w[K][C][R][S] (KCRS) and
// y[N][K][P][Q]. The own kernels are NHWC only. For one seed every operator of a shape sees the
// same logical tensors (drawn in NHWC order, then stored in the operator's layout).
//
// Shape strings: "B2_C320_H64_W64_K320_3x3_s1" = batch 2, 320 input channels, 64x64 input,
// 320 output channels, 3x3 filter, stride 1; padding is (R-1)/2 (1 for 3x3, 0 for 1x1) unless a
// "_p<pad>" suffix says otherwise. The output is P x Q = (H + 2*pad - R)/stride + 1 per axis.
// flops = 2*N*P*Q*K*R*S*C; bytes = input + filter + output in the storage dtype. The check shape
// keeps C, R, S, stride and padding (the reduction length R*S*C drives rounding error) and cuts
// batch, spatial size and K (ConvDims::check_dims).
#include "kernels/conv/conv_operators.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/util/cuda_raii.hpp"
#include "kernels/common/launch_config.hpp"
#include "kernels/common/sm90a_target.hpp"
#include "kernels/conv/conv_cudnn.hpp"
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/conv/conv_problem.hpp"
#include "kernels/conv/conv_wgmma.hpp"
#include "kernels/conv/conv_wgmma_geometry.hpp"
#include "kernels/matmul/gemm_wgmma_tiling.hpp"

namespace archbench::kernels::conv {
namespace {

struct NamedShape {
  ConvDims dims;
  const char* model;
  bool all_variants;  // also f32/tf32 and NCHW (rows 1, 5, 6, 7)
};

// docs/reference/workload.md, "The operator set" (conv row): {N, H, W, C, K, R, S, stride, pad}.
const std::array kShapes{
    NamedShape{{2, 64, 64, 320, 320, 3, 3, 1, 1}, "SD1.5 UNet L0 conv3x3", true},
    NamedShape{{2, 16, 16, 1280, 1280, 3, 3, 1, 1}, "SD1.5 UNet L2 conv3x3", false},
    NamedShape{{2, 8, 8, 1280, 1280, 3, 3, 1, 1}, "SD1.5 UNet mid conv3x3 (8x8)", false},
    NamedShape{{2, 16, 16, 2560, 1280, 3, 3, 1, 1}, "SD1.5 UNet conv3x3 after skip-concat", false},
    NamedShape{{2, 64, 64, 320, 320, 3, 3, 2, 1}, "SD1.5 UNet downsample conv3x3 stride 2", true},
    NamedShape{{2, 32, 32, 960, 640, 1, 1, 1, 0}, "SD1.5 UNet ResBlock 1x1 skip", true},
    NamedShape{{2, 64, 64, 4, 320, 3, 3, 1, 1}, "SD1.5 UNet conv_in (4 latent channels)", true},
    NamedShape{{2, 128, 128, 320, 320, 3, 3, 1, 1}, "SDXL UNet L0 conv3x3 (1024 px)", false},
};

OperatorSpec make_spec(const char* name, DType dtype, Impl impl, arch::ComputeCapability min_cc, const NamedShape& s) {
  return shaped_spec("conv", name, dtype, impl, min_cc, s.dims, s.model);
}

class ConvOperator final : public Operator {
 public:
  ConvOperator(OperatorSpec spec, const ConvDims& bench, ConvLayout layout, MakeConvLauncher make,
               std::vector<KernelRef> kernels, const ConvDims& check)
      : Operator(std::move(spec)), bench_(bench), check_(check), layout_(layout), make_(std::move(make)),
        kernels_(std::move(kernels)) {}
  ConvOperator(OperatorSpec spec, const ConvDims& bench, ConvLayout layout, MakeConvLauncher make,
               std::vector<KernelRef> kernels)
      : ConvOperator(std::move(spec), bench, layout, std::move(make), std::move(kernels), bench.check_dims()) {}
  [[nodiscard]] std::vector<KernelRef> kernels() const override { return kernels_; }
  [[nodiscard]] std::unique_ptr<Problem> make_problem(ProblemScale scale, uint64_t seed) const override {
    return std::make_unique<ConvProblem>(bench_, check_, layout_, spec().dtype, make_, scale, seed);
  }

 private:
  ConvDims bench_;
  ConvDims check_;
  ConvLayout layout_;
  MakeConvLauncher make_;
  std::vector<KernelRef> kernels_;
};

// Own kernels: the plan (tile variant, split-K) is made for the benchmark shape on the current
// device, the split-K workspace for the problem's own shape.
class TensorCoreLauncher final : public ConvLauncher {
 public:
  TensorCoreLauncher(const ConvDims& dims, const ConvDims& bench, DType dtype)
      : dims_(dims), dtype_(dtype), plan_(plan_conv_tc(dtype, bench)), workspace_(plan_.workspace_bytes(dims)) {}
  void launch(const DeviceTensor& x, const DeviceTensor& w, DeviceTensor& y, cudaStream_t stream) override {
    launch_conv_tc(dtype_, x.buffer.get(), w.buffer.get(), y.buffer.get(), workspace_.as<float>(), dims_, plan_,
                   stream);
  }

 private:
  ConvDims dims_;
  DType dtype_;
  ConvPlan plan_;
  DeviceBuffer workspace_;
};

// The tiling is planned for the benchmark shape on the current device (the check shape keeps K, so
// it runs the same kernel and split), the workspace for the problem's own shape.
class WgmmaLauncher final : public ConvLauncher {
 public:
  WgmmaLauncher(const ConvDims& dims, const ConvDims& bench, DType dtype)
      : dims_(dims), dtype_(dtype), plan_(conv_wgmma_plan(bench, conv_wgmma_device())),
        workspace_(sizeof(float) * plan_.workspace_floats(dims)) {}
  void launch(const DeviceTensor& x, const DeviceTensor& w, DeviceTensor& y, cudaStream_t stream) override {
    if (dtype_ == DType::BF16) {
      launch_conv_wgmma_bf16(x.as<__nv_bfloat16>(), w.as<__nv_bfloat16>(), y.as<__nv_bfloat16>(),
                             workspace_.as<float>(), plan_, dims_, stream);
    } else {
      launch_conv_wgmma_f16(x.as<__half>(), w.as<__half>(), y.as<__half>(), workspace_.as<float>(), plan_, dims_,
                            stream);
    }
  }
  // "128x160 tiles, split-K 4 in the cluster"
  [[nodiscard]] std::string implementation() const override {
    std::string split;
    if (plan_.splits > 1) {
      split = ", split-K " + std::to_string(plan_.splits) +
              (plan_.reduction == matmul::SplitReduction::InCluster ? " in the cluster" : "");
    }
    return std::to_string(plan_.pixels) + "x" + std::to_string(plan_.width) + " tiles" + split;
  }

 private:
  ConvDims dims_;
  DType dtype_;
  ConvWgmmaPlan plan_;
  DeviceBuffer workspace_;
};

class SimtLauncher final : public ConvLauncher {
 public:
  SimtLauncher(const ConvDims& dims, const ConvDims& bench)
      : dims_(dims), plan_(plan_conv_simt(bench)), workspace_(plan_.workspace_bytes(dims)) {}
  void launch(const DeviceTensor& x, const DeviceTensor& w, DeviceTensor& y, cudaStream_t stream) override {
    launch_conv_simt_f32(x.as<float>(), w.as<float>(), y.as<float>(), workspace_.as<float>(), dims_, plan_, stream);
  }

 private:
  ConvDims dims_;
  ConvPlan plan_;
  DeviceBuffer workspace_;
};

std::string reduce_kernel_name(DType d) { return "conv_splitk_reduce_" + std::string(dtype_name(d)); }

void add_tensor_core(Registry& r, DType dtype, const NamedShape& s) {
  OperatorSpec spec = make_spec("conv_tc", dtype, Impl::Own, {8, 0}, s);
  spec.oracle_twin = "conv_cudnn_nhwc";
  const ConvPlan tiles = tensor_core_tiles(s.dims);
  r.add(std::make_unique<ConvOperator>(
      std::move(spec), s.dims, ConvLayout::NHWC,
      [dtype](const ConvDims& dims, const ConvDims& bench) {
        return std::make_unique<TensorCoreLauncher>(dims, bench, dtype);
      },
      std::vector<KernelRef>{{conv_tc_kernel_name(dtype, tiles), conv_tc_kernel(dtype, tiles)},
                             {reduce_kernel_name(dtype), conv_splitk_reduce_kernel(dtype)}}));
}

// Every wgmma kernel a launch of this shape may take: the A source is the shape's (conv_wgmma_a_source),
// the tile width depends on the device's SM count, split-K on the shape and the device (conv_wgmma_plan).
// Every width is compiled and listed in each kind (one kernel per width and kind, as the launch
// dispatches), also where the plan never takes it. Split-K's second kernel (conv_splitk_reduce) is not
// listed: it is conv_tc's, built for every target of the list, and judged with conv_tc; the operator's
// verdict is its sm_90a code's.
std::vector<KernelRef> wgmma_kernels(DType dtype, ConvWgmmaASource source) {
  struct Kind {
    ConvWgmmaKernel kernel;
    const char* suffix;
  };
  constexpr Kind kKinds[] = {{ConvWgmmaKernel::Whole, ""},
                             {ConvWgmmaKernel::WorkspacePartials, "_splitk"},
                             {ConvWgmmaKernel::ClusterSplit, "_splitk_cluster"}};
  std::vector<KernelRef> kernels;
  for (int pixels : {kWgmmaTilePixels, kWgmmaSmallTilePixels}) {
    for (const Kind& kind : kKinds) {
      for (int width : matmul::kConvWgmmaTileWidths) {
        const std::string name = "conv_wgmma_" + std::string(dtype_name(dtype)) +
                                 (source == ConvWgmmaASource::Matrix ? "_1x1" : "") +
                                 (pixels == kWgmmaTilePixels ? "" : "_m64") + "_n" + std::to_string(width) +
                                 kind.suffix;
        kernels.push_back({name,
                           dtype == DType::BF16 ? conv_wgmma_bf16_kernel(source, pixels, width, kind.kernel)
                                                : conv_wgmma_f16_kernel(source, pixels, width, kind.kernel),
                           sm90a_target()});
      }
    }
  }
  return kernels;
}

void add_wgmma(Registry& r, DType dtype, const NamedShape& s) {
  if (!conv_wgmma_unsupported(s.dims).empty()) return;  // conv_in: 4 channels
  OperatorSpec spec = make_spec("conv_wgmma", dtype, Impl::Own, {9, 0}, s);
  spec.min_cc_why = "wgmma";
  r.add(std::make_unique<ConvOperator>(
      std::move(spec), s.dims, ConvLayout::NHWC,
      [dtype](const ConvDims& dims, const ConvDims& bench) {
        return std::make_unique<WgmmaLauncher>(dims, bench, dtype);
      },
      wgmma_kernels(dtype, conv_wgmma_a_source(s.dims)), conv_wgmma_check_dims(s.dims)));
}

void add_simt(Registry& r, const NamedShape& s) {
  OperatorSpec spec = make_spec("conv_simt", DType::F32, Impl::Own, {7, 5}, s);
  spec.oracle_twin = "conv_cudnn_nhwc";
  r.add(std::make_unique<ConvOperator>(
      std::move(spec), s.dims, ConvLayout::NHWC,
      [](const ConvDims& dims, const ConvDims& bench) { return std::make_unique<SimtLauncher>(dims, bench); },
      std::vector<KernelRef>{{"conv_simt_f32", conv_simt_f32_kernel()},
                             {reduce_kernel_name(DType::F32), conv_splitk_reduce_kernel(DType::F32)}}));
}

void add_cudnn(Registry& r, DType dtype, ConvLayout layout, const NamedShape& s) {
  // As for cuBLAS: bf16 and TF32 tensor-core math exist from CC 8.0.
  const arch::ComputeCapability min_cc =
      (dtype == DType::TF32 || dtype == DType::BF16) ? arch::ComputeCapability{8, 0} : arch::ComputeCapability{7, 5};
  const char* name = layout == ConvLayout::NHWC ? "conv_cudnn_nhwc" : "conv_cudnn_nchw";
  r.add(std::make_unique<ConvOperator>(
      make_spec(name, dtype, Impl::CuDNN, min_cc, s), s.dims, layout,
      [dtype, layout](const ConvDims& dims, const ConvDims&) { return make_cudnn_launcher(dims, layout, dtype); },
      std::vector<KernelRef>{}));
}

}  // namespace

void register_operators(Registry& r) {
  for (const auto& s : kShapes) {
    add_tensor_core(r, DType::F16, s);
    add_tensor_core(r, DType::BF16, s);
    add_wgmma(r, DType::F16, s);
    add_wgmma(r, DType::BF16, s);
    if (s.all_variants) add_simt(r, s);
    for (DType d : {DType::F32, DType::TF32, DType::F16, DType::BF16}) {
      const bool low_precision = d == DType::F16 || d == DType::BF16;
      if (low_precision || s.all_variants) add_cudnn(r, d, ConvLayout::NHWC, s);
      if (s.all_variants) add_cudnn(r, d, ConvLayout::NCHW, s);
    }
  }
}

}  // namespace archbench::kernels::conv
