// What the convolution benches (conv_variants.cpp: conv_tc's tile variants; conv_wgmma_plans.cpp:
// conv_wgmma's plans) share: the workload shapes, and candidates run in one process against cuDNN,
// each checked against cuDNN's output, then timed in interleaved rounds (cold L2, CUDA events) so
// that clock drift touches all of them alike.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <memory>
#include <optional>

#include "harness/ops/tensor.hpp"
#include "harness/util/quantile.hpp"  // median
#include "kernels/conv/conv_dims.hpp"
#include "kernels/conv/conv_problem.hpp"

namespace archbench::bench {

// {N, H, W, C, K, R, S, stride, pad}: the conv family's workload shapes (kernels/conv/conv_operators.cpp).
inline constexpr std::array<kernels::conv::ConvDims, 8> kConvShapes{{
    {2, 64, 64, 320, 320, 3, 3, 1, 1},
    {2, 16, 16, 1280, 1280, 3, 3, 1, 1},
    {2, 8, 8, 1280, 1280, 3, 3, 1, 1},
    {2, 16, 16, 2560, 1280, 3, 3, 1, 1},
    {2, 64, 64, 320, 320, 3, 3, 2, 1},
    {2, 32, 32, 960, 640, 1, 1, 1, 0},
    {2, 64, 64, 4, 320, 3, 3, 1, 1},
    {2, 128, 128, 320, 320, 3, 3, 1, 1},
}};

struct Candidate {
  std::string name;
  std::function<void(cudaStream_t)> launch;  // writes the shared output tensor
  std::vector<double> samples_us;
};

// The L2 size of the first usable device, or nothing after saying on stderr why there is none.
[[nodiscard]] std::optional<size_t> usable_device_l2_bytes();

// One shape and dtype (printed when made): seeded inputs, the output every own candidate writes, and cuDNN
// writing its own output, the reference, as candidates[0]. Candidates capture the tensors by reference:
// the case stays where it was made.
struct ConvBenchCase {
  ConvBenchCase(const kernels::conv::ConvDims& dims, DType dtype);
  ConvBenchCase(const ConvBenchCase&) = delete;
  ConvBenchCase& operator=(const ConvBenchCase&) = delete;

  // One time per line: the candidate's median, TFLOP/s and cuDNN's median over it.
  void print_time(const std::string& name, double us) const;

  kernels::conv::ConvDims d;
  DType dtype;
  DeviceTensor x, w, y, y_cudnn;
  std::shared_ptr<kernels::conv::ConvLauncher> cudnn;
  std::vector<Candidate> candidates;
};

// Runs candidates[0] (cuDNN, writing `reference`), then each other one on a poisoned `out`, and keeps those
// whose output is within 1e-2 (relative L2 norm) of the reference's; prints the others and returns how
// many there were. A candidate whose launch throws (a plan the kernels do not take) is dropped silently
// and counted in `refused`.
size_t keep_agreeing(std::vector<Candidate>& candidates, DeviceTensor& out, const DeviceTensor& reference,
                     cudaStream_t stream, size_t& refused);

// One warm-up sample each, then `rounds` rounds of one sample per candidate (cold L2, events).
void time_interleaved(std::vector<Candidate>& candidates, int rounds, size_t l2_bytes, cudaStream_t stream);

}  // namespace archbench::bench
