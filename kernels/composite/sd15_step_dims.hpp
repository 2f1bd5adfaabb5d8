// The shape of one "diffusion step" composite (see composite_operators.cpp): an SD1.5 ResBlock and
// a spatial transformer block on an NHWC activation x [B, H, W, C], repeated for `steps` sampler
// steps, and what each stage of the chain costs. Plain C++: used by the problem, the operators
// and the unit tests.
#pragma once

#include <string>
#include <vector>

#include "harness/ops/dtype.hpp"
#include "kernels/attention/attention_dims.hpp"
#include "kernels/conv/conv_dims.hpp"

namespace archbench::kernels::composite {

// One stage of the chain (one kernel launch of the step, or a group of identical ones) and its
// cost per step: FLOPs as its family counts them (GEMM/conv 2·MACs, attention 4·B·h·Nq·Nk·d,
// norms and elementwise 0) and its ideal traffic in bytes (each operand read once, the output
// written once, in the storage type; fp32 for the timesteps).
struct StageCost {
  std::string name;
  int count = 1;       // launches per step
  double flops = 0;    // per launch
  double bytes = 0;    // per launch
};

struct Sd15StepDims {
  int B = 0;      // batch (2: the CFG pair)
  int H = 0, W = 0, C = 0;
  int heads = 0;  // attention heads; head dim = C / heads
  int steps = 0;  // sampler steps chained (the output of one is the input of the next)

  static constexpr int kTimeChannels = 320;  // model_channels: width of the sinusoidal embedding
  static constexpr int kTimeEmbed = 1280;    // time_embed width (4 x model_channels)
  static constexpr int kGroups = 32;         // GroupNorm(32)
  static constexpr int kFfInner = 4;         // GEGLU FeedForward: inner width 4C (projection to 8C)

  [[nodiscard]] int tokens() const { return H * W; }
  [[nodiscard]] long long rows() const { return 1LL * B * H * W; }  // tokens of the whole batch
  [[nodiscard]] int head_dim() const { return heads > 0 ? C / heads : 0; }
  [[nodiscard]] size_t activation_numel() const { return static_cast<size_t>(rows()) * static_cast<size_t>(C); }

  // The two convolutions of the ResBlock (3x3, pad 1) and proj_in / proj_out (1x1).
  [[nodiscard]] conv::ConvDims conv3x3() const { return {B, H, W, C, C, 3, 3, 1, 1}; }
  [[nodiscard]] conv::ConvDims conv1x1() const { return {B, H, W, C, C, 1, 1, 1, 0}; }
  // Self-attention over the H*W tokens of each image.
  [[nodiscard]] attention::AttentionDims attention() const { return {B, heads, tokens(), tokens(), head_dim()}; }

  // "B2_H32_W32_C640_heads8_S3"
  [[nodiscard]] std::string str() const;
  // The shape checked against the float64 CPU reference: the same batch, channels, heads and
  // steps (so every reduction over channels, every head dim and the chain length are the real
  // ones), a 5 x 7 image (35 tokens: a ragged tile everywhere, H != W so a transposed index shows).
  [[nodiscard]] Sd15StepDims check_dims() const;
  // Positive sizes, C a multiple of 32 groups, of the heads and of 8 (the GEMMs move K in 8-element vectors).
  [[nodiscard]] bool valid() const;

  // The launches of one step, in order, with their costs (see StageCost).
  [[nodiscard]] std::vector<StageCost> stage_costs(DType storage) const;
  // Sums over every stage and every step.
  [[nodiscard]] double flops() const;
  [[nodiscard]] double bytes(DType storage) const;
};

}  // namespace archbench::kernels::composite
