// The composite family: a whole diffusion step built from this project's own kernels.
//
// Operator (id = composite/sd15_step/<dtype>/<shape>), f16 and bf16, CC >= 8.0 (the tensor-core
// GEMM, conv and attention kernels). One sampler step of an SD1.5 UNet level, on x NHWC
// [B, H, W, C], repeated S times with each step's output fed back in:
//
//   temb = Linear(C <- 1280)(SiLU(Linear(1280 <- 1280)(SiLU(Linear(1280 <- 320)(sinusoid_320(t_s))))))
//   ResBlock:     h = conv3x3(silu(GN(x))) + temb[b];  h = conv3x3(silu(GN(h)));  x = x + h
//   Transformer:  p = proj_in_1x1(GN(x));  t = LN(p);  q, k, v = t · Wqkvᵀ (one fused GEMM);
//                 p = p + attention(q, k, v) · Woᵀ  (flash attention, BHND: permuted in and out);
//                 t = LN(p);  p = p + geglu(t · W1ᵀ) · W2ᵀ;  x = x + proj_out_1x1(p)
//
// Kernels: norm (groupnorm NHWC +/- fused SiLU, layernorm), elementwise (timestep embedding,
// SiLU, residual add, GEGLU), conv (conv_tc 3x3 and 1x1), matmul (gemm_tc: C = A · Bᵀ, nn.Linear
// weights [out, in]), attention (flash_tc), and three glue kernels of this family (the
// time-embedding broadcast add and the [tokens, heads * d] <-> BHND permutes).
// Not modelled: biases (the own GEMM/conv have none), the cross-attention to the text context, the
// sampler's own update arithmetic, and the 1x1 skip conv (C is unchanged).
//
// Shapes (docs/reference/workload.md, "The models behind the shapes"): SD1.5 at 512 px, B = 2 (CFG), level 0
// (64x64, C 320, 8 heads x 40) and level 1 (32x32, C 640, 8 heads x 80); S = 3 steps. flops and bytes are the
// sums over every launch of every step of the stages' own formulas (Sd15StepDims::stage_costs: GEMM 2MNK and
// e(MK+NK+MN); conv 2·M·K·RSC and input + filter + output; attention 4·B·h·N²·d and e·B·h·d·4N; norms, SiLU,
// GEGLU, adds and permutes their single-pass traffic). The check shape keeps B, C, heads and S and cuts the
// image to 5x7 (Sd15StepDims::check_dims); the float64 reference chains the families' references and rounds
// to the storage type wherever the GPU stores a tensor.
#include "kernels/composite/composite_operators.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernels/attention/attention_kernels.hpp"
#include "kernels/composite/composite_kernels.hpp"
#include "kernels/composite/sd15_step_dims.hpp"
#include "kernels/composite/sd15_step_problem.hpp"
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/elementwise/elementwise_kernels.hpp"
#include "kernels/matmul/gemm_kernels.hpp"
#include "kernels/norm/norm_kernels.hpp"

namespace archbench::kernels::composite {
namespace {

struct NamedStep {
  Sd15StepDims dims;
  const char* model;
};

constexpr int kSteps = 3;
const std::array kShapes{
    NamedStep{{2, 64, 64, 320, 8, kSteps}, "SD1.5 UNet L0 ResBlock + transformer block, 3 sampler steps"},
    NamedStep{{2, 32, 32, 640, 8, kSteps}, "SD1.5 UNet L1 ResBlock + transformer block, 3 sampler steps"},
};

class Sd15StepOperator final : public Operator {
 public:
  Sd15StepOperator(OperatorSpec spec, const Sd15StepDims& bench) : Operator(std::move(spec)), bench_(bench) {}

  [[nodiscard]] std::vector<KernelRef> kernels() const override {
    const DType d = spec().dtype;
    const std::string t(dtype_name(d));
    using norm::GroupNormLayout;
    std::vector<KernelRef> all{
        {"timestep_embedding_" + t, elementwise::timestep_embedding_kernel(d)},
        {"gemm_tc_" + t, d == DType::F16 ? matmul::gemm_tc_f16_kernel() : matmul::gemm_tc_bf16_kernel()},
        {"silu_" + t, elementwise::activation_kernel(elementwise::Activation::Silu, d)},
        {"groupnorm_nhwc_split_silu_" + t, norm::groupnorm_split_kernel(d, GroupNormLayout::NHWC, true)},
        {"groupnorm_nhwc_generic_silu_" + t, norm::groupnorm_generic_kernel(d, GroupNormLayout::NHWC, true)},
        {"groupnorm_nhwc_split_" + t, norm::groupnorm_split_kernel(d, GroupNormLayout::NHWC, false)},
        {"groupnorm_nhwc_generic_" + t, norm::groupnorm_generic_kernel(d, GroupNormLayout::NHWC, false)},
        {"conv_splitk_reduce_" + t, conv::conv_splitk_reduce_kernel(d)},
        {"add_channel_vector_" + t, add_channel_vector_kernel(d)},
        {"add_" + t, elementwise::add_kernel(d)},
        {"layernorm_" + t, norm::layernorm_kernel(d, true, bench_.C)},
        {"split_heads_" + t, split_heads_kernel(d)},
        {"flash_attention_" + t + "_d" + std::to_string(bench_.head_dim()),
         attention::flash_attention_kernel(d, bench_.head_dim())},
        {"merge_heads_" + t, merge_heads_kernel(d)},
        {"geglu_" + t, elementwise::geglu_kernel(d)},
    };
    // The tile variants of the 3x3 and 1x1 convolutions (one or two: the rule weighs their size too).
    std::set<std::string> seen;
    for (const conv::ConvDims& c : {bench_.conv3x3(), bench_.conv1x1()}) {
      const conv::ConvPlan tiles = conv::tensor_core_tiles(c);
      const std::string name = conv::conv_tc_kernel_name(d, tiles);
      if (seen.insert(name).second) all.push_back({name, conv::conv_tc_kernel(d, tiles)});
    }
    return all;
  }

  [[nodiscard]] std::unique_ptr<Problem> make_problem(ProblemScale scale, uint64_t seed) const override {
    return make_sd15_step_problem(bench_, spec().dtype, scale, seed);
  }

 private:
  Sd15StepDims bench_;
};

void add_sd15_step(Registry& r, DType dtype, const NamedStep& s) {
  OperatorSpec spec;
  spec.family = "composite";
  spec.name = "sd15_step";
  spec.dtype = dtype;
  spec.shape = s.dims.str();
  spec.model = s.model;
  spec.impl = Impl::Own;
  spec.min_cc = {8, 0};
  spec.flops = s.dims.flops();
  spec.bytes = s.dims.bytes(dtype);
  r.add(std::make_unique<Sd15StepOperator>(std::move(spec), s.dims));
}

}  // namespace

void register_operators(Registry& r) {
  for (DType d : {DType::F16, DType::BF16}) {
    for (const NamedStep& s : kShapes) add_sd15_step(r, d, s);
  }
}

}  // namespace archbench::kernels::composite
