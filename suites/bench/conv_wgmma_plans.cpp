// The plans of the Hopper convolution (conv_wgmma) against the cuDNN twin, at the conv family's workload
// shapes, in one process: every tile height (128 or 64 output pixels), tile width (kConvWgmmaTileWidths)
// and split of the reduction (1, 2, 3, 4 or 8 parts, through the workspace or in the cluster) that the
// kernels take at a shape, checked against cuDNN's output, then timed in interleaved rounds (cold L2, CUDA
// events) with cuDNN and conv_wgmma_plan's choice. Prints, per shape and dtype, cuDNN, the plan, and the
// fastest others: the measurements behind conv_wgmma_plan (kernels/conv/conv_wgmma_geometry.hpp) and
// docs/kernel-choices.md's conv_wgmma tables, without a build per experiment.
//
// Usage: archbench_conv_wgmma_plans [rounds (default 30)] [shape substring, e.g. C960]
// Exit: 0; 1 when a plan's output differs from cuDNN's; 2 bad arguments; 3 no usable device, no sm_90a code,
// or a failing CUDA call.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/ops/tensor.hpp"
#include "harness/util/cuda_raii.hpp"
#include "kernels/conv/conv_wgmma.hpp"
#include "kernels/conv/conv_wgmma_geometry.hpp"
#include "suites/bench/conv_candidates.hpp"

namespace {

using namespace archbench;
using namespace archbench::bench;
using namespace archbench::kernels::conv;
using archbench::kernels::matmul::SplitReduction;

std::string plan_name(const ConvWgmmaPlan& p) {
  std::string s = std::to_string(p.pixels) + "x" + std::to_string(p.width);
  if (p.splits == 1) return s + ", unsplit";
  const bool in_cluster = p.reduction == SplitReduction::InCluster;
  return s + ", " + std::to_string(p.splits) + (in_cluster ? " in the cluster" : " via workspace");
}

bool same_plan(const ConvWgmmaPlan& a, const ConvWgmmaPlan& b) {
  return a.pixels == b.pixels && a.width == b.width && a.splits == b.splits &&
         (a.splits == 1 || a.reduction == b.reduction);
}

// Every plan the kernels may take at `d` (the launch refuses the rest: keep_agreeing drops them).
std::vector<ConvWgmmaPlan> all_plans(const ConvDims& d) {
  std::vector<ConvWgmmaPlan> plans;
  for (const int pixels : {kWgmmaTilePixels, kWgmmaSmallTilePixels}) {
    if (!conv_wgmma_unsupported(d, pixels).empty()) continue;
    for (const int width : kernels::matmul::kConvWgmmaTileWidths) {
      for (const int splits : {1, 2, 3, 4, 8}) {
        for (const SplitReduction reduction : {SplitReduction::Workspace, SplitReduction::InCluster}) {
          if (splits == 1 && reduction == SplitReduction::InCluster) continue;
          plans.push_back({pixels, width, splits, reduction});
        }
      }
    }
  }
  return plans;
}

// Returns false when a plan's output differs from cuDNN's.
bool bench_shape(const ConvDims& d, DType dtype, int rounds, size_t l2_bytes, const ConvWgmmaDevice& device) {
  ConvBenchCase c(d, dtype);
  const ConvWgmmaPlan chosen = conv_wgmma_plan(d, device);
  const std::vector<ConvWgmmaPlan> plans = all_plans(d);
  size_t workspace_floats = 4;  // one workspace for every plan, the largest any needs
  for (const ConvWgmmaPlan& plan : plans) workspace_floats = std::max(workspace_floats, plan.workspace_floats(d));
  auto workspace = std::make_shared<DeviceBuffer>(sizeof(float) * workspace_floats);
  for (const ConvWgmmaPlan& plan : plans) {
    const std::string name = plan_name(plan) + (same_plan(plan, chosen) ? " (the plan)" : "");
    c.candidates.push_back({name,
                            [&c, plan, workspace](cudaStream_t s) {
                              if (c.dtype == DType::BF16) {
                                launch_conv_wgmma_bf16(c.x.as<__nv_bfloat16>(), c.w.as<__nv_bfloat16>(),
                                                       c.y.as<__nv_bfloat16>(), workspace->as<float>(), plan, c.d, s);
                              } else {
                                launch_conv_wgmma_f16(c.x.as<__half>(), c.w.as<__half>(), c.y.as<__half>(),
                                                      workspace->as<float>(), plan, c.d, s);
                              }
                            },
                            {}});
  }
  CudaStream stream;
  size_t refused = 0;
  const size_t differing = keep_agreeing(c.candidates, c.y, c.y_cudnn, stream.get(), refused);
  time_interleaved(c.candidates, rounds, l2_bytes, stream.get());
  std::vector<std::pair<double, std::string>> own;
  for (size_t i = 1; i < c.candidates.size(); ++i) {
    own.emplace_back(median(c.candidates[i].samples_us), c.candidates[i].name);
  }
  std::sort(own.begin(), own.end());
  c.print_time(c.candidates.front().name, median(c.candidates.front().samples_us));
  constexpr size_t kShown = 8;
  for (size_t i = 0; i < own.size(); ++i) {
    if (i < kShown || own[i].second.find("(the plan)") != std::string::npos) c.print_time(own[i].second, own[i].first);
  }
  std::printf("  %zu plans timed (%zu shown), %zu refused by the kernels, %zu differing\n", own.size(),
              std::min(own.size(), kShown), refused, differing);
  return differing == 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 30;
  const std::string only = argc > 2 ? argv[2] : "";
  if (rounds < 1 || argc > 3) {
    std::fprintf(stderr, "usage: archbench_conv_wgmma_plans [rounds >= 1] [shape substring]\n");
    return 2;
  }
  const std::optional<size_t> l2_bytes = usable_device_l2_bytes();
  if (!l2_bytes) return 3;
  bool ok = true;
  size_t benched = 0;
  try {
    const ConvWgmmaDevice device = conv_wgmma_device();
    for (const ConvDims& d : kConvShapes) {
      if (!conv_wgmma_unsupported(d).empty() || d.str().find(only) == std::string::npos) continue;
      for (DType dtype : {DType::F16, DType::BF16}) {
        ok = bench_shape(d, dtype, rounds, *l2_bytes, device) && ok;
        ++benched;
      }
    }
  } catch (const std::exception& e) {  // a build without sm_90a, a device below 9.0, a CUDA error: it says which
    std::fprintf(stderr, "error: %s\n", e.what());
    return 3;
  }
  if (benched == 0) {
    std::fprintf(stderr, "no conv_wgmma shape matches \"%s\"\n", only.c_str());
    return 2;
  }
  return ok ? 0 : 1;
}
