// The diffusion-step composite without a GPU: its shape and cost formulas, its registration, and
// its float64 reference chain on tiny shapes: hand-checkable cases (zero and identity weights),
// the layout permutes, and the chain against the families' references composed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/ops/registry.hpp"
#include "kernels/attention/attention_dims.hpp"
#include "kernels/attention/attention_reference.hpp"
#include "kernels/composite/sd15_step_dims.hpp"
#include "kernels/composite/sd15_step_problem.hpp"
#include "kernels/composite/sd15_step_reference.hpp"
#include "kernels/conv/conv_reference.hpp"
#include "kernels/elementwise/elementwise_reference.hpp"
#include "kernels/norm/norm_reference.hpp"

namespace archbench::kernels::composite {
namespace {

using Vec = std::vector<double>;

// B 2, 3 x 4 image, C 64 (2 channels per group), 2 heads of 32.
const Sd15StepDims kTiny{2, 3, 4, 64, 2, 2};

Vec random_values(size_t n, std::mt19937_64& rng, double lo, double hi, DType storage) {
  std::uniform_real_distribution<double> dist(lo, hi);
  Vec v(n);
  for (double& x : v) x = round_to_storage(storage, dist(rng));
  return v;
}

Vec identity(size_t n) {
  Vec w(n * n, 0.0);
  for (size_t i = 0; i < n; ++i) w[i * n + i] = 1.0;
  return w;
}

Sd15StepWeights random_weights(const Sd15StepDims& d, DType storage, unsigned seed) {
  std::mt19937_64 rng(seed);
  const size_t C = static_cast<size_t>(d.C), inner = Sd15StepDims::kFfInner * C;
  constexpr size_t kT = Sd15StepDims::kTimeChannels, kE = Sd15StepDims::kTimeEmbed;
  auto w = [&](size_t out, size_t in) {
    const double a = std::sqrt(3.0 / static_cast<double>(in));
    return random_values(out * in, rng, -a, a, storage);
  };
  auto gamma = [&] { return random_values(C, rng, 0.5, 1.5, storage); };
  auto beta = [&] { return random_values(C, rng, -0.5, 0.5, storage); };
  Sd15StepWeights s;
  s.time_w1 = w(kE, kT);
  s.time_w2 = w(kE, kE);
  s.emb_w = w(C, kE);
  s.gn1_gamma = gamma();
  s.gn1_beta = beta();
  s.conv1_w = w(C, 9 * C);
  s.gn2_gamma = gamma();
  s.gn2_beta = beta();
  s.conv2_w = w(C, 9 * C);
  s.gnt_gamma = gamma();
  s.gnt_beta = beta();
  s.proj_in_w = w(C, C);
  s.ln1_gamma = gamma();
  s.ln1_beta = beta();
  s.qkv_w = w(3 * C, C);
  s.out_w = w(C, C);
  s.ln2_gamma = gamma();
  s.ln2_beta = beta();
  s.ff1_w = w(2 * inner, C);
  s.ff2_w = w(C, inner);
  s.proj_out_w = w(C, C);
  return s;
}

Vec random_x(const Sd15StepDims& d, DType storage, unsigned seed) {
  std::mt19937_64 rng(seed);
  return random_values(d.activation_numel(), rng, -1.0, 1.0, storage);
}

// ---- shapes and costs

TEST(Sd15StepDims, NamesAndCheckShape) {
  const Sd15StepDims l1{2, 32, 32, 640, 8, 3};
  EXPECT_EQ(l1.str(), "B2_H32_W32_C640_heads8_S3");
  EXPECT_EQ(l1.head_dim(), 80);
  EXPECT_EQ(l1.tokens(), 1024);
  EXPECT_TRUE(l1.valid());
  const Sd15StepDims c = l1.check_dims();
  EXPECT_EQ(c.str(), "B2_H5_W7_C640_heads8_S3");  // same batch, channels, heads and steps
  EXPECT_EQ(c.conv3x3().str(), "B2_C640_H5_W7_K640_3x3_s1");
  EXPECT_EQ(c.conv1x1().str(), "B2_C640_H5_W7_K640_1x1_s1");
  EXPECT_EQ(c.attention().str(), "B2_H8_Nq35_Nk35_D80");
  EXPECT_FALSE((Sd15StepDims{2, 8, 8, 100, 4, 1}.valid()));  // 100 channels: not 32 groups
  EXPECT_FALSE((Sd15StepDims{2, 8, 8, 320, 8, 0}.valid()));
}

TEST(Sd15StepDims, FlopsAreTheSumOfTheStages) {
  // SD1.5 L0, written out: per step the time MLP, two 3x3 convs, two 1x1 convs, QKV, attention,
  // out projection, GEGLU projection and FF out.
  const Sd15StepDims d{2, 64, 64, 320, 8, 3};
  const double B = 2, C = 320, N = 4096, M = B * N, h = 8, hd = 40;
  const double per_step = 2 * B * (320.0 * 1280 + 1280.0 * 1280 + 1280 * C) + 2 * (2 * M * C * 9 * C) +
                          2 * (2 * M * C * C) + 2 * M * 3 * C * C + 4 * B * h * N * N * hd + 2 * M * C * C +
                          2 * M * 8 * C * C + 2 * M * C * 4 * C;
  EXPECT_DOUBLE_EQ(d.flops(), 3 * per_step);
}

TEST(Sd15StepDims, BytesAreTheSumOfTheStages) {
  const Sd15StepDims d{2, 32, 32, 640, 8, 3};
  const double B = 2, C = 640, N = 1024, M = B * N, h = 8, hd = 80, T = 320, E = 1280;
  for (DType dt : {DType::F16, DType::BF16}) {
    const double e = 2, act = M * C;
    auto gemm = [&](double m, double n, double k) { return e * (m * k + n * k + m * n); };
    const double time = 4 * B + e * B * T + gemm(B, E, T) + 2 * (2 * e * B * E) + gemm(B, E, E) + gemm(B, C, E);
    const double resblock = 2 * (2 * e * act) + 2 * e * (act + 9 * C * C + act) + e * (2 * act + B * C) +
                            3 * e * act;
    const double transformer = 2 * e * act + 2 * e * (act + C * C + act) + 2 * (2 * e * act) + gemm(M, 3 * C, C) +
                               2 * e * 3 * act + e * B * h * hd * 4 * N + 2 * e * act + gemm(M, C, C) +
                               gemm(M, 8 * C, C) + e * (M * 8 * C + M * 4 * C) + gemm(M, C, 4 * C) +
                               3 * (3 * e * act);
    EXPECT_DOUBLE_EQ(d.bytes(dt), 3 * (time + resblock + transformer)) << dtype_name(dt);
  }
  double launches = 0;
  for (const StageCost& s : d.stage_costs(DType::F16)) launches += s.count;
  EXPECT_EQ(launches, 28.0);  // what one step enqueues (see sd15_step_problem.cpp)
}

TEST(Sd15StepOperators, RegisteredWithEveryKernel) {
  std::set<std::string> ids;
  for (const auto& op : registry().all()) {
    if (op->spec().family != "composite") continue;
    ids.insert(op->id());
    EXPECT_EQ(op->spec().impl, Impl::Own);
    EXPECT_EQ(op->spec().min_cc.major, 8);
    EXPECT_GT(op->spec().flops, 0);
    EXPECT_GT(op->spec().bytes, 0);
    const auto kernels = op->kernels();
    std::set<std::string> names;
    for (const auto& k : kernels) {
      EXPECT_NE(k.host_stub, nullptr) << op->id() << " " << k.name;
      EXPECT_TRUE(names.insert(k.name).second) << "listed twice: " << k.name;
    }
    const std::string t(dtype_name(op->spec().dtype));
    for (const std::string& must : {"split_heads_" + t, "merge_heads_" + t, "add_channel_vector_" + t, "gemm_tc_" + t,
                                    "geglu_" + t, "layernorm_" + t, "timestep_embedding_" + t}) {
      EXPECT_TRUE(names.contains(must)) << op->id() << " lacks " << must;
    }
    // 15 named + the conv_tc tile variants of the 3x3 and 1x1 convolutions (conv_plan.hpp's rule):
    // one at C = 320 (K = 320 takes the 160-wide tile), two at C = 640, where the 3x3 conv has
    // the multiply-adds for the 160-wide tile and the 1x1 does not.
    const bool c640 = op->id().find("_C640_") != std::string::npos;
    EXPECT_EQ(kernels.size(), c640 ? 17u : 16u) << op->id();
    EXPECT_TRUE(names.contains("conv_tc_" + t + "_m128_n160_k64_sk2_c8")) << op->id();
    EXPECT_EQ(names.contains("conv_tc_" + t + "_m128_n128_k64_sk2_c8"), c640) << op->id();
  }
  for (const std::string dt : {"f16", "bf16"}) {
    EXPECT_TRUE(ids.contains("composite/sd15_step/" + dt + "/B2_H64_W64_C320_heads8_S3"));
    EXPECT_TRUE(ids.contains("composite/sd15_step/" + dt + "/B2_H32_W32_C640_heads8_S3"));
  }
  EXPECT_EQ(ids.size(), 4u);
}

TEST(Sd15StepOperators, TimestepsAreExactAndDifferPerSample) {
  for (int s = 0; s < 3; ++s) {
    const double t0 = sd15_step_timestep(s, 0), t1 = sd15_step_timestep(s, 1);
    EXPECT_NE(t0, t1);
    EXPECT_EQ(t0, static_cast<double>(static_cast<float>(t0)));
    EXPECT_GE(t0, 0);
    EXPECT_LT(t0, 1000);
  }
}

// ---- the reference's building blocks

TEST(Sd15StepReference, RoundsToStorage) {
  EXPECT_EQ(round_to_storage(DType::F16, 1.0 + std::ldexp(1.0, -12)), 1.0);
  EXPECT_EQ(round_to_storage(DType::F16, 1.0 + std::ldexp(1.0, -10)), 1.0 + std::ldexp(1.0, -10));
  EXPECT_EQ(round_to_storage(DType::BF16, 1.0 + std::ldexp(1.0, -9)), 1.0);
  EXPECT_EQ(round_to_storage(DType::BF16, 1.0 + std::ldexp(1.0, -7)), 1.0 + std::ldexp(1.0, -7));
  EXPECT_EQ(round_to_storage(DType::F32, 1.0 + std::ldexp(1.0, -30)), 1.0);
}

TEST(Sd15StepReference, LinearIsXTimesWTransposed) {
  const Vec x{1, 2, 3, 4, 5, 6};        // [2, 3]
  const Vec w{1, 0, -1, 0.5, 0.5, 0.5};  // [2, 3]: out 0 = x0 - x2, out 1 = mean * 1.5
  const Vec y = linear_reference(x, w, 2, 3, 2);
  ASSERT_EQ(y.size(), 4u);
  EXPECT_DOUBLE_EQ(y[0], -2);
  EXPECT_DOUBLE_EQ(y[1], 3);
  EXPECT_DOUBLE_EQ(y[2], -2);
  EXPECT_DOUBLE_EQ(y[3], 7.5);
}

TEST(Sd15StepReference, SplitAndMergeHeads) {
  const int B = 2, N = 3, H = 2, D = 4, C = H * D;
  Vec qkv(static_cast<size_t>(B * N * 3 * C));
  for (size_t i = 0; i < qkv.size(); ++i) qkv[i] = static_cast<double>(i);
  const Qkv parts = split_heads_reference(qkv, B, N, H, D);
  // Row (b 1, n 2) holds [q | k | v]; v's head 1, element 3 sits at channel 2C + 1 * D + 3.
  const size_t row = (1 * N + 2) * 3 * C;
  EXPECT_EQ(parts.v[((1 * H + 1) * N + 2) * D + 3], qkv[row + 2 * C + 1 * D + 3]);
  EXPECT_EQ(parts.q[((0 * H + 1) * N + 0) * D + 0], qkv[0 * 3 * C + 0 * C + 1 * D + 0]);
  EXPECT_EQ(parts.k[((1 * H + 0) * N + 1) * D + 2], qkv[(1 * N + 1) * 3 * C + C + 0 * D + 2]);
  // merge(split(.)) gives each part back in token-major rows.
  const Vec q_rows = merge_heads_reference(parts.q, B, N, H, D);
  for (int b = 0; b < B; ++b)
    for (int n = 0; n < N; ++n)
      for (int c = 0; c < C; ++c) {
        EXPECT_EQ(q_rows[static_cast<size_t>((b * N + n) * C + c)], qkv[static_cast<size_t>((b * N + n) * 3 * C + c)]);
      }
}

// ---- stages on hand-checkable weights

TEST(Sd15StepReference, ResBlockWithZeroLastConvIsTheIdentity) {
  const DType st = DType::F16;
  Sd15StepWeights w = random_weights(kTiny, st, 1);
  w.conv2_w.assign(w.conv2_w.size(), 0.0);
  const Vec x = random_x(kTiny, st, 2);
  std::mt19937_64 rng(3);
  const Vec temb = random_values(static_cast<size_t>(kTiny.B * kTiny.C), rng, -1, 1, st);
  EXPECT_EQ(resblock_stage(kTiny, w, x, temb, st), x);
}

TEST(Sd15StepReference, ResBlockAddsTheTimeEmbeddingPerSample) {
  // conv1 = 0: the second GroupNorm sees temb[b, c] at every pixel; GN2 (gamma 1, beta 0) then
  // normalizes over each group's channels; conv2 = identity on the centre tap passes it through.
  const DType st = DType::F32;
  const Sd15StepDims& d = kTiny;
  const size_t C = static_cast<size_t>(d.C), cpg = C / Sd15StepDims::kGroups;
  Sd15StepWeights w = random_weights(d, st, 4);
  w.conv1_w.assign(w.conv1_w.size(), 0.0);
  w.gn2_gamma.assign(C, 1.0);
  w.gn2_beta.assign(C, 0.0);
  w.conv2_w.assign(C * 9 * C, 0.0);
  for (size_t k = 0; k < C; ++k) w.conv2_w[(k * 9 + 4) * C + k] = 1.0;  // KRSC, tap (1, 1)
  const Vec x = random_x(d, st, 5);
  std::mt19937_64 rng(6);
  const Vec temb = random_values(static_cast<size_t>(d.B) * C, rng, -1, 1, st);
  const Vec y = resblock_stage(d, w, x, temb, st);
  for (size_t b = 0; b < static_cast<size_t>(d.B); ++b)
    for (size_t c = 0; c < C; ++c) {
      const size_t g0 = c / cpg * cpg;
      double mean = 0, var = 0;
      for (size_t j = g0; j < g0 + cpg; ++j) mean += temb[b * C + j] / static_cast<double>(cpg);
      for (size_t j = g0; j < g0 + cpg; ++j) var += std::pow(temb[b * C + j] - mean, 2) / static_cast<double>(cpg);
      const double g = elementwise::silu_reference((temb[b * C + c] - mean) / std::sqrt(var + kGroupNormEps));
      for (size_t p = 0; p < static_cast<size_t>(d.tokens()); ++p) {
        const size_t i = (b * static_cast<size_t>(d.tokens()) + p) * C + c;
        EXPECT_NEAR(y[i], x[i] + g, 1e-6 * (1 + std::abs(x[i] + g))) << "b " << b << " p " << p << " c " << c;
      }
    }
}

TEST(Sd15StepReference, TransformerWithZeroProjOutIsTheIdentity) {
  const DType st = DType::BF16;
  Sd15StepWeights w = random_weights(kTiny, st, 7);
  w.proj_out_w.assign(w.proj_out_w.size(), 0.0);
  const Vec x = random_x(kTiny, st, 8);
  EXPECT_EQ(transformer_stage(kTiny, w, x, st), x);
}

TEST(Sd15StepReference, TransformerWithZeroQueriesAveragesTheValues) {
  // Wq = 0: every query scores every key alike, so attention returns the mean of v over the
  // image's tokens. With Wv, Wo, proj_in and proj_out the identity and W1 = 0 (GEGLU of 0 is 0):
  //   p = GN(x), out = x + p + mean over tokens of LN1(p).
  const DType st = DType::F32;
  const Sd15StepDims& d = kTiny;
  const size_t C = static_cast<size_t>(d.C), N = static_cast<size_t>(d.tokens());
  Sd15StepWeights w = random_weights(d, st, 9);
  w.proj_in_w = identity(C);
  w.proj_out_w = identity(C);
  w.out_w = identity(C);
  const Vec eye = identity(C);
  for (size_t i = 0; i < C * C; ++i) {
    w.qkv_w[i] = 0.0;              // Wq
    w.qkv_w[2 * C * C + i] = eye[i];  // Wv
  }
  w.ff1_w.assign(w.ff1_w.size(), 0.0);
  const Vec x = random_x(d, st, 10);
  const Vec y = transformer_stage(d, w, x, st);

  const norm::GroupNormDims g{static_cast<size_t>(d.B), C, N, Sd15StepDims::kGroups, true};
  const Vec p = norm::groupnorm_reference(x, w.gnt_gamma, w.gnt_beta, g, kGroupNormEps, false);
  const Vec t = norm::layernorm_reference(p, w.ln1_gamma, w.ln1_beta, static_cast<size_t>(d.rows()), C, kLayerNormEps);
  for (size_t b = 0; b < static_cast<size_t>(d.B); ++b)
    for (size_t c = 0; c < C; ++c) {
      double mean = 0;
      for (size_t n = 0; n < N; ++n) mean += t[(b * N + n) * C + c] / static_cast<double>(N);
      for (size_t n = 0; n < N; ++n) {
        const size_t i = (b * N + n) * C + c;
        const double want = x[i] + p[i] + mean;
        EXPECT_NEAR(y[i], want, 1e-5 * (1 + std::abs(want))) << "b " << b << " n " << n << " c " << c;
      }
    }
}

TEST(Sd15StepReference, TimeEmbeddingRowsFollowTheirSample) {
  const DType st = DType::BF16;
  const Sd15StepWeights w = random_weights(kTiny, st, 11);
  const Vec ab = time_embedding_stage(kTiny, w, {961, 500}, st);
  const Vec ba = time_embedding_stage(kTiny, w, {500, 961}, st);
  const size_t C = static_cast<size_t>(kTiny.C);
  ASSERT_EQ(ab.size(), 2 * C);
  bool differ = false;
  for (size_t c = 0; c < C; ++c) {
    EXPECT_EQ(ab[c], ba[C + c]);
    EXPECT_EQ(ab[C + c], ba[c]);
    differ = differ || ab[c] != ab[C + c];
  }
  EXPECT_TRUE(differ);
}

// ---- the chain against the families' references composed here by hand

Vec r(DType st, Vec v) { return round_all(st, std::move(v)); }

Vec step_by_hand(const Sd15StepDims& d, const Sd15StepWeights& w, const Vec& x, const Vec& t, DType st) {
  const size_t B = static_cast<size_t>(d.B), C = static_cast<size_t>(d.C), N = static_cast<size_t>(d.tokens());
  const int rows = static_cast<int>(d.rows()), inner = 4 * d.C;
  auto linear = [](const Vec& a, const Vec& wt, int m, int in, int out) {
    return conv::reference_conv(a, wt, conv::ConvDims{1, 1, m, in, out, 1, 1, 1, 0}, conv::ConvLayout::NHWC);
  };
  auto silu = [](Vec v) {
    for (double& e : v) e = elementwise::silu_reference(e);
    return v;
  };
  auto add = [](const Vec& a, const Vec& b) {
    Vec y(a.size());
    for (size_t i = 0; i < a.size(); ++i) y[i] = a[i] + b[i];
    return y;
  };
  const norm::GroupNormDims gd{B, C, N, 32, true};
  const conv::ConvDims c3{d.B, d.H, d.W, d.C, d.C, 3, 3, 1, 1}, c1{d.B, d.H, d.W, d.C, d.C, 1, 1, 1, 0};
  const auto nhwc = conv::ConvLayout::NHWC;

  Vec e = r(st, elementwise::timestep_embedding_reference(t, 320, 10000.0));
  e = r(st, linear(e, w.time_w1, d.B, 320, 1280));
  e = r(st, silu(e));
  e = r(st, linear(e, w.time_w2, d.B, 1280, 1280));
  e = r(st, silu(e));
  const Vec temb = r(st, linear(e, w.emb_w, d.B, 1280, d.C));

  Vec h = r(st, conv::reference_conv(r(st, norm::groupnorm_reference(x, w.gn1_gamma, w.gn1_beta, gd, 1e-6, true)),
                                     w.conv1_w, c3, nhwc));
  for (size_t i = 0; i < h.size(); ++i) h[i] += temb[i / (N * C) * C + i % C];
  h = r(st, h);
  h = r(st, conv::reference_conv(r(st, norm::groupnorm_reference(h, w.gn2_gamma, w.gn2_beta, gd, 1e-6, true)),
                                 w.conv2_w, c3, nhwc));
  const Vec x1 = r(st, add(x, h));

  const Vec p = r(st, conv::reference_conv(r(st, norm::groupnorm_reference(x1, w.gnt_gamma, w.gnt_beta, gd, 1e-6, false)),
                                           w.proj_in_w, c1, nhwc));
  const Vec t1 = r(st, norm::layernorm_reference(p, w.ln1_gamma, w.ln1_beta, B * N, C, 1e-5));
  const Vec qkv = r(st, linear(t1, w.qkv_w, rows, d.C, 3 * d.C));
  const size_t H = static_cast<size_t>(d.heads), D = static_cast<size_t>(d.head_dim());
  Vec q(B * N * C), k(B * N * C), v(B * N * C);
  for (size_t b = 0; b < B; ++b)
    for (size_t n = 0; n < N; ++n)
      for (size_t c = 0; c < C; ++c) {
        const size_t bhnd = ((b * H + c / D) * N + n) * D + c % D, row = (b * N + n) * 3 * C;
        q[bhnd] = qkv[row + c];
        k[bhnd] = qkv[row + C + c];
        v[bhnd] = qkv[row + 2 * C + c];
      }
  const Vec o = r(st, attention::reference_attention(q, k, v, {d.B, d.heads, d.tokens(), d.tokens(), d.head_dim()}));
  Vec o_rows(o.size());
  for (size_t b = 0; b < B; ++b)
    for (size_t n = 0; n < N; ++n)
      for (size_t c = 0; c < C; ++c) o_rows[(b * N + n) * C + c] = o[((b * H + c / D) * N + n) * D + c % D];
  const Vec p2 = r(st, add(p, r(st, linear(o_rows, w.out_w, rows, d.C, d.C))));
  const Vec t2 = r(st, norm::layernorm_reference(p2, w.ln2_gamma, w.ln2_beta, B * N, C, 1e-5));
  const Vec f = r(st, linear(t2, w.ff1_w, rows, d.C, 2 * inner));
  const Vec g = r(st, elementwise::geglu_reference(f, B * N, static_cast<size_t>(inner)));
  const Vec p3 = r(st, add(p2, r(st, linear(g, w.ff2_w, rows, inner, d.C))));
  return r(st, add(x1, r(st, conv::reference_conv(p3, w.proj_out_w, c1, nhwc))));
}

TEST(Sd15StepReference, ChainEqualsTheFamilyReferencesComposedByHand) {
  for (DType st : {DType::F16, DType::BF16}) {
    const Sd15StepWeights w = random_weights(kTiny, st, 12);
    const Vec x = random_x(kTiny, st, 13);
    const Vec t{961, 974, 921, 934};  // [steps 2, B 2]
    const Vec once = step_by_hand(kTiny, w, x, {t[0], t[1]}, st);
    EXPECT_EQ(step_reference(kTiny, w, x, {t[0], t[1]}, st), once) << dtype_name(st);
    const Vec twice = step_by_hand(kTiny, w, once, {t[2], t[3]}, st);
    const Vec chain = sd15_step_reference(kTiny, w, x, t, st);
    EXPECT_EQ(chain, twice) << dtype_name(st);
    // A chain that feeds its output back really moves: neither step is the identity.
    EXPECT_NE(once, x);
    EXPECT_NE(twice, once);
    for (double e : chain) ASSERT_TRUE(std::isfinite(e));
  }
}

TEST(Sd15StepReference, RejectsWrongSizes) {
  const Sd15StepWeights w = random_weights(kTiny, DType::F16, 14);
  const Vec x = random_x(kTiny, DType::F16, 15);
  EXPECT_THROW((void)sd15_step_reference(kTiny, w, x, {1, 2, 3}, DType::F16), std::invalid_argument);
  EXPECT_THROW((void)resblock_stage(kTiny, w, x, {1.0}, DType::F16), std::invalid_argument);
  EXPECT_THROW((void)split_heads_reference(Vec(7), 1, 1, 1, 2), std::invalid_argument);
}

}  // namespace
}  // namespace archbench::kernels::composite
