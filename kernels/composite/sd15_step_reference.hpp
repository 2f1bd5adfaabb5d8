// The float64 CPU reference of the diffusion-step composite, chained from the families' own
// float64 references (norm, elementwise, conv, attention; a Linear is the conv reference as a 1x1
// convolution over a 1 x rows image). Every tensor the GPU stores between two kernels is rounded
// to the storage type at the same point here, so that the reference sees what each kernel of the
// chain sees and the tolerance keeps its meaning over the whole chain.
//
// Layouts (as on the GPU): activations NHWC [B, H*W, C], i.e. [rows, C] token-major; Linear
// weights [out, in] (nn.Linear; the GEMM is y = x · Wᵀ); conv filters KRSC [C, 3, 3, C] and
// [C, 1, 1, C]; attention BHND.
#pragma once

#include <vector>

#include "harness/ops/dtype.hpp"
#include "harness/ops/tensor.hpp"
#include "kernels/composite/sd15_step_dims.hpp"

namespace archbench::kernels::composite {

// Every parameter of one step (the same for all steps, as a sampler reuses one UNet). No biases:
// the own GEMM and conv kernels have none (the time embedding is the one per-channel add).
struct Sd15StepWeights {
  std::vector<double> time_w1;   // [1280, 320]
  std::vector<double> time_w2;   // [1280, 1280]
  std::vector<double> emb_w;     // [C, 1280]
  std::vector<double> gn1_gamma, gn1_beta;  // [C]
  std::vector<double> conv1_w;   // [C, 3, 3, C]
  std::vector<double> gn2_gamma, gn2_beta;
  std::vector<double> conv2_w;
  std::vector<double> gnt_gamma, gnt_beta;  // the spatial transformer's GroupNorm
  std::vector<double> proj_in_w;  // [C, 1, 1, C]
  std::vector<double> ln1_gamma, ln1_beta;
  std::vector<double> qkv_w;      // [3C, C]: rows of Wq, then Wk, then Wv
  std::vector<double> out_w;      // [C, C]
  std::vector<double> ln2_gamma, ln2_beta;
  std::vector<double> ff1_w;      // [8C, C]: GEGLU projection, outputs [hidden 4C | gate 4C]
  std::vector<double> ff2_w;      // [C, 4C]
  std::vector<double> proj_out_w; // [C, 1, 1, C]
};

inline constexpr double kGroupNormEps = 1e-6;  // SD1.5 Normalize
inline constexpr double kLayerNormEps = 1e-5;  // nn.LayerNorm default
inline constexpr double kMaxPeriod = 10000.0;

// Every element rounded to the storage type (round_to_storage, harness/ops/tensor.hpp), as the GPU
// stores an intermediate tensor.
[[nodiscard]] std::vector<double> round_all(DType storage, std::vector<double> v);

// y [rows, out] = x [rows, in] · w [out, in]ᵀ (the conv reference as a 1x1 convolution), unrounded.
[[nodiscard]] std::vector<double> linear_reference(const std::vector<double>& x, const std::vector<double>& w,
                                                   int rows, int in, int out);
// qkv [B, N, 3, heads, d] -> q, k, v each BHND [B, heads, N, d], and back: o BHND -> [B, N, heads * d].
struct Qkv {
  std::vector<double> q, k, v;
};
[[nodiscard]] Qkv split_heads_reference(const std::vector<double>& qkv, int batch, int tokens, int heads, int head_dim);
[[nodiscard]] std::vector<double> merge_heads_reference(const std::vector<double>& o, int batch, int tokens, int heads,
                                                        int head_dim);

// The stages (inputs already in storage precision; outputs rounded as the GPU stores them).
// timesteps [B] -> temb [B, C].
[[nodiscard]] std::vector<double> time_embedding_stage(const Sd15StepDims& d, const Sd15StepWeights& w,
                                                       const std::vector<double>& timesteps, DType storage);
// x + conv2(silu(GN2(conv1(silu(GN1(x))) + temb))).
[[nodiscard]] std::vector<double> resblock_stage(const Sd15StepDims& d, const Sd15StepWeights& w,
                                                 const std::vector<double>& x, const std::vector<double>& temb,
                                                 DType storage);
// x + proj_out(block(proj_in(GN(x)))), block: p += attn(LN1(p)) Wo; p += geglu(LN2(p) W1) W2.
[[nodiscard]] std::vector<double> transformer_stage(const Sd15StepDims& d, const Sd15StepWeights& w,
                                                    const std::vector<double>& x, DType storage);
// One sampler step: transformer(resblock(x, temb(t))).
[[nodiscard]] std::vector<double> step_reference(const Sd15StepDims& d, const Sd15StepWeights& w,
                                                 const std::vector<double>& x, const std::vector<double>& timesteps,
                                                 DType storage);
// d.steps steps, step s with timesteps[s * B .. s * B + B), each fed the previous one's output.
[[nodiscard]] std::vector<double> sd15_step_reference(const Sd15StepDims& d, const Sd15StepWeights& w,
                                                      const std::vector<double>& x,
                                                      const std::vector<double>& timesteps, DType storage);

}  // namespace archbench::kernels::composite
