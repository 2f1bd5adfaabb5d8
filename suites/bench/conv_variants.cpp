// The tile variants of the own tensor-core convolution (conv_tc) against the cuDNN twin, at the
// conv family's workload shapes, in one process: the measurements behind the plan rule in
// kernels/conv/conv_plan.hpp. Every variant of kTensorCoreTiles that can run a shape (its copy
// width divides C; the device gives a block its shared memory) is planned for this device
// (split-K included), checked against cuDNN's output, then timed with the rest in interleaved
// rounds (cold L2, CUDA events), so that clock drift touches all of them alike.
//
// To try a new variant: add its TileConfig to AllTiles (conv_tc_tiles.cuh) and its shape to
// kTensorCoreTiles (conv_plan.hpp), build, run `archbench_conv_variants [rounds]`.
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
#include "kernels/conv/conv_kernels.hpp"
#include "suites/bench/conv_candidates.hpp"

namespace {

using namespace archbench;
using namespace archbench::bench;
using namespace archbench::kernels::conv;

// Returns false when a variant's output differs from cuDNN's.
bool bench_shape(const ConvDims& d, DType dtype, int rounds, size_t l2_bytes) {
  ConvBenchCase c(d, dtype);
  const std::string chosen = plan_conv_tc(dtype, d).str();
  for (const TensorCoreTile& tile : kTensorCoreTiles) {
    if (d.C % tile.chunk != 0) continue;
    ConvPlan plan;
    try {
      plan = plan_conv_tc(dtype, d, plan_with_tile(tile));
    } catch (const std::exception& e) {  // cannot be resident here (shared memory)
      std::printf("  %-36s skipped: %s\n", plan_with_tile(tile).str().c_str(), e.what());
      continue;
    }
    auto workspace = std::make_shared<DeviceBuffer>(std::max<size_t>(plan.workspace_bytes(d), 16));
    const std::string name = plan.str() + (plan.str() == chosen ? " (rule)" : "");
    c.candidates.push_back({name,
                            [&c, plan, workspace](cudaStream_t s) {
                              launch_conv_tc(c.dtype, c.x.buffer.get(), c.w.buffer.get(), c.y.buffer.get(),
                                             workspace->as<float>(), c.d, plan, s);
                            },
                            {}});
  }

  CudaStream stream;
  size_t refused = 0;
  const bool all_agree = keep_agreeing(c.candidates, c.y, c.y_cudnn, stream.get(), refused) == 0;
  time_interleaved(c.candidates, rounds, l2_bytes, stream.get());
  for (const auto& candidate : c.candidates) c.print_time(candidate.name, median(candidate.samples_us));
  return all_agree;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 40;
  if (rounds < 1) {
    std::fprintf(stderr, "usage: archbench_conv_variants [rounds >= 1]\n");
    return 2;
  }
  const std::optional<size_t> l2_bytes = usable_device_l2_bytes();
  if (!l2_bytes) return 3;
  bool ok = true;
  try {
    for (const ConvDims& d : kConvShapes) {
      for (DType dtype : {DType::F16, DType::BF16}) ok = bench_shape(d, dtype, rounds, *l2_bytes) && ok;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return ok ? 0 : 1;
}
