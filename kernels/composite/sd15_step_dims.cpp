#include "kernels/composite/sd15_step_dims.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/matmul/gemm_problem.hpp"

namespace archbench::kernels::composite {

std::string Sd15StepDims::str() const {
  return "B" + std::to_string(B) + "_H" + std::to_string(H) + "_W" + std::to_string(W) + "_C" + std::to_string(C) +
         "_heads" + std::to_string(heads) + "_S" + std::to_string(steps);
}

Sd15StepDims Sd15StepDims::check_dims() const {
  Sd15StepDims d = *this;
  d.H = std::min(H, 5);
  d.W = std::min(W, 7);
  return d;
}

bool Sd15StepDims::valid() const {
  return B > 0 && H > 0 && W > 0 && C > 0 && heads > 0 && steps > 0 && C % kGroups == 0 && C % heads == 0 &&
         C % 8 == 0;
}

std::vector<StageCost> Sd15StepDims::stage_costs(DType storage) const {
  const double e = static_cast<double>(storage_bytes(storage));
  const double numel = static_cast<double>(activation_numel());
  const double b = B, c = C;
  const int m = static_cast<int>(rows());
  auto gemm = [&](const char* name, int rows_, int n, int k) {
    const matmul::GemmDims g{rows_, n, k};
    return StageCost{name, 1, g.flops(), g.bytes(storage)};
  };
  const conv::ConvDims c3 = conv3x3(), c1 = conv1x1();
  const attention::AttentionDims att = attention();
  return {
      // Time embedding: sinusoid(320) -> Linear(320, 1280) -> SiLU -> Linear(1280, 1280), then the
      // ResBlock's emb_layers SiLU -> Linear(1280, C). Timesteps are read in fp32.
      {"timestep_embedding", 1, 0, 4 * b + e * b * kTimeChannels},
      gemm("time_linear1", B, kTimeEmbed, kTimeChannels),
      {"time_silu", 2, 0, 2 * e * b * kTimeEmbed},
      gemm("time_linear2", B, kTimeEmbed, kTimeEmbed),
      gemm("emb_linear", B, C, kTimeEmbed),
      // ResBlock.
      {"groupnorm_silu", 2, 0, 2 * e * numel},
      {"conv3x3", 2, c3.flops(), c3.bytes(storage)},
      {"add_temb", 1, 0, e * (2 * numel + b * c)},
      {"residual_add", 4, 0, 3 * e * numel},  // ResBlock skip, attention, FF, spatial-transformer skip
      // Spatial transformer: GroupNorm -> proj_in -> [LN, self-attention, LN, GEGLU FF] -> proj_out.
      {"groupnorm", 1, 0, 2 * e * numel},
      {"conv1x1", 2, c1.flops(), c1.bytes(storage)},
      {"layernorm", 2, 0, 2 * e * numel},
      gemm("qkv_linear", m, 3 * C, C),
      {"split_heads", 1, 0, 2 * e * 3 * numel},
      {"attention", 1, att.flops(), att.bytes(storage)},
      {"merge_heads", 1, 0, 2 * e * numel},
      gemm("out_linear", m, C, C),
      gemm("ff_linear1", m, 2 * kFfInner * C, C),
      {"geglu", 1, 0, e * 3 * kFfInner * numel},  // reads [rows, 8C], writes [rows, 4C]
      gemm("ff_linear2", m, C, kFfInner * C),
  };
}

double Sd15StepDims::flops() const {
  double f = 0;
  for (const StageCost& s : stage_costs(DType::F16)) f += s.count * s.flops;
  return f * steps;
}

double Sd15StepDims::bytes(DType storage) const {
  double total = 0;
  for (const StageCost& s : stage_costs(storage)) total += s.count * s.bytes;
  return total * steps;
}

}  // namespace archbench::kernels::composite
