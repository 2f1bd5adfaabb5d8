#include "kernels/composite/sd15_step_reference.hpp"

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kernels/attention/attention_dims.hpp"
#include "kernels/attention/attention_reference.hpp"
#include "kernels/conv/conv_reference.hpp"
#include "kernels/elementwise/elementwise_reference.hpp"
#include "kernels/norm/norm_reference.hpp"

namespace archbench::kernels::composite {
namespace {

using Vec = std::vector<double>;

size_t sz(long long v) { return static_cast<size_t>(v); }

Vec add(const Vec& a, const Vec& b) {
  if (a.size() != b.size()) throw std::invalid_argument("sd15_step reference: add of different sizes");
  Vec y(a.size());
  for (size_t i = 0; i < a.size(); ++i) y[i] = a[i] + b[i];
  return y;
}

Vec silu(Vec v) {
  for (double& x : v) x = elementwise::silu_reference(x);
  return v;
}

// GroupNorm(32) over NHWC x [B, H*W, C], optionally followed by SiLU.
Vec groupnorm(const Sd15StepDims& d, const Vec& x, const Vec& gamma, const Vec& beta, bool with_silu) {
  const norm::GroupNormDims g{sz(d.B), sz(d.C), sz(d.tokens()), sz(Sd15StepDims::kGroups), true};
  return norm::groupnorm_reference(x, gamma, beta, g, kGroupNormEps, with_silu);
}

Vec layernorm(const Sd15StepDims& d, const Vec& x, const Vec& gamma, const Vec& beta) {
  return norm::layernorm_reference(x, gamma, beta, sz(d.rows()), sz(d.C), kLayerNormEps);
}

}  // namespace

std::vector<double> round_all(DType storage, std::vector<double> v) {
  for (double& x : v) x = round_to_storage(storage, x);
  return v;
}

std::vector<double> linear_reference(const std::vector<double>& x, const std::vector<double>& w, int rows, int in,
                                     int out) {
  // An image of 1 x rows pixels with `in` channels, filtered by `out` 1x1 filters: y[r, o] = sum_i x[r, i] w[o, i].
  const conv::ConvDims as_conv{1, 1, rows, in, out, 1, 1, 1, 0};
  if (x.size() != as_conv.input_numel() || w.size() != as_conv.filter_numel()) {
    throw std::invalid_argument("linear_reference: x must be [rows, in] and w [out, in]");
  }
  return conv::reference_conv(x, w, as_conv, conv::ConvLayout::NHWC);
}

Qkv split_heads_reference(const std::vector<double>& qkv, int batch, int tokens, int heads, int head_dim) {
  const size_t B = sz(batch), N = sz(tokens), H = sz(heads), D = sz(head_dim), C = H * D;
  if (qkv.size() != B * N * 3 * C) throw std::invalid_argument("split_heads_reference: qkv must be [B, N, 3C]");
  Qkv out{Vec(B * H * N * D), Vec(B * H * N * D), Vec(B * H * N * D)};
  Vec* parts[3] = {&out.q, &out.k, &out.v};
  for (size_t b = 0; b < B; ++b)
    for (size_t n = 0; n < N; ++n)
      for (size_t which = 0; which < 3; ++which)
        for (size_t h = 0; h < H; ++h)
          for (size_t j = 0; j < D; ++j)
            (*parts[which])[((b * H + h) * N + n) * D + j] = qkv[((b * N + n) * 3 + which) * C + h * D + j];
  return out;
}

std::vector<double> merge_heads_reference(const std::vector<double>& o, int batch, int tokens, int heads,
                                          int head_dim) {
  const size_t B = sz(batch), N = sz(tokens), H = sz(heads), D = sz(head_dim);
  if (o.size() != B * H * N * D) throw std::invalid_argument("merge_heads_reference: o must be [B, heads, N, d]");
  Vec y(o.size());
  for (size_t b = 0; b < B; ++b)
    for (size_t h = 0; h < H; ++h)
      for (size_t n = 0; n < N; ++n)
        for (size_t j = 0; j < D; ++j) y[((b * N + n) * H + h) * D + j] = o[((b * H + h) * N + n) * D + j];
  return y;
}

std::vector<double> time_embedding_stage(const Sd15StepDims& d, const Sd15StepWeights& w,
                                         const std::vector<double>& timesteps, DType storage) {
  if (timesteps.size() != sz(d.B)) throw std::invalid_argument("time_embedding_stage: one timestep per sample");
  constexpr int kT = Sd15StepDims::kTimeChannels, kE = Sd15StepDims::kTimeEmbed;
  const Vec e0 = round_all(storage, elementwise::timestep_embedding_reference(timesteps, kT, kMaxPeriod));
  const Vec e1 = round_all(storage, linear_reference(e0, w.time_w1, d.B, kT, kE));
  const Vec e2 = round_all(storage, silu(e1));
  const Vec e3 = round_all(storage, linear_reference(e2, w.time_w2, d.B, kE, kE));
  const Vec e4 = round_all(storage, silu(e3));
  return round_all(storage, linear_reference(e4, w.emb_w, d.B, kE, d.C));
}

std::vector<double> resblock_stage(const Sd15StepDims& d, const Sd15StepWeights& w, const std::vector<double>& x,
                                   const std::vector<double>& temb, DType storage) {
  if (x.size() != d.activation_numel() || temb.size() != sz(d.B) * sz(d.C)) {
    throw std::invalid_argument("resblock_stage: x must be [B, H, W, C] and temb [B, C]");
  }
  const conv::ConvDims c3 = d.conv3x3();
  const Vec g1 = round_all(storage, groupnorm(d, x, w.gn1_gamma, w.gn1_beta, true));
  const Vec h1 = round_all(storage, conv::reference_conv(g1, w.conv1_w, c3, conv::ConvLayout::NHWC));
  Vec h1b(h1.size());  // + temb[b, c] at every pixel of sample b
  const size_t per_sample = sz(d.tokens()) * sz(d.C);
  for (size_t i = 0; i < h1.size(); ++i) h1b[i] = h1[i] + temb[i / per_sample * sz(d.C) + i % sz(d.C)];
  h1b = round_all(storage, std::move(h1b));
  const Vec g2 = round_all(storage, groupnorm(d, h1b, w.gn2_gamma, w.gn2_beta, true));
  const Vec h2 = round_all(storage, conv::reference_conv(g2, w.conv2_w, c3, conv::ConvLayout::NHWC));
  return round_all(storage, add(x, h2));
}

std::vector<double> transformer_stage(const Sd15StepDims& d, const Sd15StepWeights& w, const std::vector<double>& x,
                                      DType storage) {
  if (x.size() != d.activation_numel()) throw std::invalid_argument("transformer_stage: x must be [B, H, W, C]");
  const int rows = static_cast<int>(d.rows());
  const int inner = Sd15StepDims::kFfInner * d.C;
  const conv::ConvDims c1 = d.conv1x1();
  const Vec s = round_all(storage, groupnorm(d, x, w.gnt_gamma, w.gnt_beta, false));
  const Vec p = round_all(storage, conv::reference_conv(s, w.proj_in_w, c1, conv::ConvLayout::NHWC));
  // Self-attention.
  const Vec t1 = round_all(storage, layernorm(d, p, w.ln1_gamma, w.ln1_beta));
  const Vec qkv = round_all(storage, linear_reference(t1, w.qkv_w, rows, d.C, 3 * d.C));
  const Qkv heads = split_heads_reference(qkv, d.B, d.tokens(), d.heads, d.head_dim());  // a copy: exact
  const Vec o = round_all(storage, attention::reference_attention(heads.q, heads.k, heads.v, d.attention()));
  const Vec o_tokens = merge_heads_reference(o, d.B, d.tokens(), d.heads, d.head_dim());
  const Vec a = round_all(storage, linear_reference(o_tokens, w.out_w, rows, d.C, d.C));
  const Vec p2 = round_all(storage, add(p, a));
  // GEGLU feed-forward.
  const Vec t2 = round_all(storage, layernorm(d, p2, w.ln2_gamma, w.ln2_beta));
  const Vec f = round_all(storage, linear_reference(t2, w.ff1_w, rows, d.C, 2 * inner));
  const Vec g = round_all(storage, elementwise::geglu_reference(f, sz(rows), sz(inner)));
  const Vec f2 = round_all(storage, linear_reference(g, w.ff2_w, rows, inner, d.C));
  const Vec p3 = round_all(storage, add(p2, f2));
  const Vec po = round_all(storage, conv::reference_conv(p3, w.proj_out_w, c1, conv::ConvLayout::NHWC));
  return round_all(storage, add(x, po));
}

std::vector<double> step_reference(const Sd15StepDims& d, const Sd15StepWeights& w, const std::vector<double>& x,
                                   const std::vector<double>& timesteps, DType storage) {
  const Vec temb = time_embedding_stage(d, w, timesteps, storage);
  return transformer_stage(d, w, resblock_stage(d, w, x, temb, storage), storage);
}

std::vector<double> sd15_step_reference(const Sd15StepDims& d, const Sd15StepWeights& w, const std::vector<double>& x,
                                        const std::vector<double>& timesteps, DType storage) {
  if (timesteps.size() != sz(d.steps) * sz(d.B)) {
    throw std::invalid_argument("sd15_step_reference: timesteps must be [steps, B]");
  }
  Vec state = x;
  for (int s = 0; s < d.steps; ++s) {
    const auto first = timesteps.begin() + static_cast<std::ptrdiff_t>(sz(s) * sz(d.B));
    state = step_reference(d, w, state, Vec(first, first + d.B), storage);
  }
  return state;
}

}  // namespace archbench::kernels::composite
