// GroupNorm(G) with per-channel affine and an optional fused SiLU, NCHW and NHWC, fp32 statistics.
//
// SD1.5's [2, 320, 64, 64] with 32 groups is only 64 groups of 40960 elements: one block per
// group leaves half the SMs idle and cannot keep enough bytes in flight. The split kernels cut a
// sync unit (NCHW: one group, contiguous; NHWC: one sample, whose pixels interleave all groups)
// into `chunks` blocks over the whole chip. Each block loads its chunk once, in 16-byte packs,
// into registers; computes the chunk's per-group mean and centered M2 from the registers (two
// passes, fp32); publishes them; waits at a barrier for the unit's other blocks (unit_barrier.cuh,
// one cooperative launch instead of a second kernel and a second read of x); combines the
// chunks' statistics in fp64; normalizes its registers and writes y once.
//
// Combination: with n_c, m_c, M2_c per chunk and N = sum n_c, the group's mean is
// s1 / N with s1 = sum n_c m_c, and its M2 is s2 - s1^2 / N with s2 = sum (M2_c + n_c m_c^2).
// In fp64 the subtraction loses nothing at fp32 level unless |mean| / std exceeds ~1e4, where
// fp32 inputs could not resolve the variance anyway.
//
// Shapes the split does not take (hw or c not a whole number of packs, unaligned buffers, a
// device without cooperative launch, a tensor too large to hold in registers of co-resident
// blocks) use the generic kernel: one block per (sample, group), x read three times.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "harness/util/cuda_check.hpp"
#include "kernels/common/launch_config.hpp"
#include "kernels/common/vector_io.cuh"
#include "kernels/norm/norm_kernels.hpp"
#include "kernels/norm/reduce.cuh"
#include "kernels/norm/unit_barrier.cuh"

namespace archbench::kernels::norm {
namespace {

constexpr int kPacks = 8;  // 16-byte packs per thread held in registers by the split kernels
constexpr int kNchwThreads = 256;
constexpr int kNhwcMaxThreads = 512;
constexpr int kGenericThreads = 1024;

template <typename T>
struct SplitArgs {
  const T* x;
  const T* gamma;
  const T* beta;
  T* y;
  unsigned long long* arrivals;  // one counter per sync unit
  float2* partials;              // (chunk mean, chunk M2): per block (NCHW), per block and group (NHWC)
  int c, hw, groups;
  int chunks, chunk_items;
  float eps;
};

template <bool kSilu>
__device__ __forceinline__ float activate(float v) {
  if constexpr (kSilu) return __fdividef(v, 1.0f + __expf(-v));
  return v;
}

// (mean, 1 / sqrt(var + eps)) from s1 = sum n_c m_c and s2 = sum (M2_c + n_c m_c^2) over `count` elements.
__device__ __forceinline__ float2 finish_stats(double s1, double s2, double count, float eps) {
  const double mean = s1 / count;
  const double var = fmax((s2 - s1 * mean) / count, 0.0);
  return make_float2(static_cast<float>(mean), static_cast<float>(rsqrt(var + static_cast<double>(eps))));
}

// NCHW: the group's cpg * hw elements are contiguous; blockIdx.x = unit * chunks + chunk with
// unit = sample * groups + group; a chunk is chunk_items packs of the group.
template <typename T, bool kSilu>
__global__ void __launch_bounds__(kNchwThreads) groupnorm_nchw_split(SplitArgs<T> a) {
  constexpr int W = Pack<T>::kSize;
  __shared__ float scratch[kNchwThreads / 32];
  __shared__ float2 stats;
  const int t = static_cast<int>(threadIdx.x);
  const int unit = static_cast<int>(blockIdx.x) / a.chunks, chunk = static_cast<int>(blockIdx.x) % a.chunks;
  const int group = unit % a.groups, cpg = a.c / a.groups;
  const int group_packs = cpg * a.hw / W;
  const int begin = chunk * a.chunk_items, end = min(group_packs, begin + a.chunk_items);
  const size_t base = static_cast<size_t>(unit) * group_packs * W;

  Pack<T> v[kPacks];
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    const int p = begin + t + k * kNchwThreads;
    if (p < end) v[k] = load_pack(a.x + base + static_cast<size_t>(p) * W);
  }

  // The chunk's mean and centered M2 (the plan leaves no chunk empty).
  float s = 0;
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    if (begin + t + k * kNchwThreads < end) {
#pragma unroll
      for (int e = 0; e < W; ++e) s += element(v[k], e);
    }
  }
  const float chunk_mean = block_sum(s, scratch) / static_cast<float>((end - begin) * W);
  float q = 0;
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    if (begin + t + k * kNchwThreads < end) {
#pragma unroll
      for (int e = 0; e < W; ++e) {
        const float d = element(v[k], e) - chunk_mean;
        q += d * d;
      }
    }
  }
  const float chunk_m2 = block_sum(q, scratch);
  if (t == 0) a.partials[blockIdx.x] = make_float2(chunk_mean, chunk_m2);

  unit_barrier(a.arrivals + unit, static_cast<unsigned>(a.chunks));

  if (t < 32) {  // one warp combines the unit's chunks
    double s1 = 0, s2 = 0;
    for (int c = t; c < a.chunks; c += 32) {
      const double n = static_cast<double>(min(group_packs, (c + 1) * a.chunk_items) - c * a.chunk_items) * W;
      const float2 p = __ldcg(a.partials + static_cast<size_t>(unit) * a.chunks + c);
      s1 += n * p.x;
      s2 += p.y + n * static_cast<double>(p.x) * p.x;
    }
    s1 = lane_group_sum(s1);
    s2 = lane_group_sum(s2);
    if (t == 0) stats = finish_stats(s1, s2, static_cast<double>(group_packs) * W, a.eps);
  }
  __syncthreads();
  const float mean = stats.x, rstd = stats.y;

#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    const int p = begin + t + k * kNchwThreads;
    if (p < end) {
      const int ch = group * cpg + p * W / a.hw;  // a pack never straddles channels: hw % W == 0
      const float scale = rstd * to_float(a.gamma[ch]);
      const float shift = to_float(a.beta[ch]) - mean * scale;
      Pack<T> out;
#pragma unroll
      for (int e = 0; e < W; ++e) out.v[e] = from_float<T>(activate<kSilu>(element(v[k], e) * scale + shift));
      store_pack(a.y + base + static_cast<size_t>(p) * W, out);
    }
  }
}

// NHWC shared memory: per-thread partial sums (reused for the fp64 combination), the groups'
// (mean, rstd), per-channel totals, the groups' chunk means.
__host__ __device__ constexpr size_t nhwc_red_bytes(int threads, int pack_size) {
  return static_cast<size_t>(threads) * pack_size * sizeof(float);  // >= threads * sizeof(double2): pack_size >= 4
}
__host__ __device__ constexpr size_t nhwc_smem_bytes(int threads, int pack_size, int c, int groups) {
  return nhwc_red_bytes(threads, pack_size) + static_cast<size_t>(groups) * sizeof(float2) +
         static_cast<size_t>(c) * sizeof(float) + static_cast<size_t>(groups) * sizeof(float);
}

// NHWC: per-channel totals over the block of per-thread, per-channel sums acc (thread t holds
// channels c0 .. c0 + W - 1 of its pixels): thread t's sums go to red[t * W ..], where channel
// ch of pixel row r sits at red[r * C + ch]; chan[ch] = their sum over the rows. Barriers on
// both sides, so red and chan can be reused by the next call.
template <int W>
__device__ __forceinline__ void channel_totals(const float (&acc)[W], float* red, float* chan, int C, int pixels_per_pass) {
  const int t = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x);
#pragma unroll
  for (int e = 0; e < W; ++e) red[t * W + e] = acc[e];
  __syncthreads();
  for (int ch = t; ch < C; ch += threads) {
    float s = 0;
    for (int r = 0; r < pixels_per_pass; ++r) s += red[r * C + ch];
    chan[ch] = s;
  }
  __syncthreads();
}

__device__ __forceinline__ float group_total(const float* chan, int g, int cpg) {
  float s = 0;
  for (int j = 0; j < cpg; ++j) s += chan[g * cpg + j];
  return s;
}

// NHWC: a sample's hw pixels of c channels are contiguous and every pixel holds all groups.
// blockIdx.x = sample * chunks + chunk; a chunk is chunk_items pixels. blockDim.x is a multiple
// of c / W (packs per pixel), of 32 and of groups, so thread t always holds the same W channels
// (pack t % (c / W)) of pixels t / (c / W) + k * (pixels per pass).
template <typename T, bool kSilu>
__global__ void __launch_bounds__(kNhwcMaxThreads) groupnorm_nhwc_split(SplitArgs<T> a) {
  constexpr int W = Pack<T>::kSize;
  extern __shared__ __align__(16) unsigned char smem[];
  const int threads = static_cast<int>(blockDim.x), t = static_cast<int>(threadIdx.x);
  const int C = a.c, G = a.groups, cpg = C / G, row_packs = C / W, pixels_per_pass = threads / row_packs;
  float* red = reinterpret_cast<float*>(smem);
  auto* gstat = reinterpret_cast<float2*>(smem + nhwc_red_bytes(threads, W));
  float* chan = reinterpret_cast<float*>(gstat + G);
  float* gmean = chan + C;

  const int sample = static_cast<int>(blockIdx.x) / a.chunks, chunk = static_cast<int>(blockIdx.x) % a.chunks;
  const int c0 = (t % row_packs) * W, first_pixel = t / row_packs;
  const int begin = chunk * a.chunk_items, end = min(a.hw, begin + a.chunk_items);
  const size_t sample_base = static_cast<size_t>(sample) * a.hw * C;

  Pack<T> v[kPacks];
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    const int pixel = begin + first_pixel + k * pixels_per_pass;
    if (pixel < end) v[k] = load_pack(a.x + sample_base + static_cast<size_t>(pixel) * C + c0);
  }

  // The chunk's per-group mean, then its per-group centered M2 (the plan leaves no chunk empty).
  const float chunk_count = static_cast<float>((end - begin) * cpg);
  float acc[W];
#pragma unroll
  for (int e = 0; e < W; ++e) {
    acc[e] = 0;
#pragma unroll
    for (int k = 0; k < kPacks; ++k) {
      if (begin + first_pixel + k * pixels_per_pass < end) acc[e] += element(v[k], e);
    }
  }
  channel_totals(acc, red, chan, C, pixels_per_pass);
  for (int g = t; g < G; g += threads) gmean[g] = group_total(chan, g, cpg) / chunk_count;
  __syncthreads();
#pragma unroll
  for (int e = 0; e < W; ++e) {
    const float m = gmean[(c0 + e) / cpg];
    acc[e] = 0;
#pragma unroll
    for (int k = 0; k < kPacks; ++k) {
      if (begin + first_pixel + k * pixels_per_pass < end) {
        const float d = element(v[k], e) - m;
        acc[e] += d * d;
      }
    }
  }
  channel_totals(acc, red, chan, C, pixels_per_pass);
  for (int g = t; g < G; g += threads) {
    a.partials[static_cast<size_t>(blockIdx.x) * G + g] = make_float2(gmean[g], group_total(chan, g, cpg));
  }

  unit_barrier(a.arrivals + sample, static_cast<unsigned>(a.chunks));

  // Combine the sample's chunks: thread t folds records i = t, t + threads, ... (all of group
  // t % G, as threads % G == 0) in fp64, then one thread per group adds the threads' folds.
  double s1 = 0, s2 = 0;
  const int records = a.chunks * G;
  const float2* unit_partials = a.partials + static_cast<size_t>(sample) * records;
  for (int i = t; i < records; i += threads) {
    const int c = i / G;
    const double n = static_cast<double>(min(a.hw, (c + 1) * a.chunk_items) - c * a.chunk_items) * cpg;
    const float2 p = __ldcg(unit_partials + i);
    s1 += n * p.x;
    s2 += p.y + n * static_cast<double>(p.x) * p.x;
  }
  auto* folds = reinterpret_cast<double2*>(smem);  // reuses red: every read of it is behind the barrier
  folds[t] = make_double2(s1, s2);
  __syncthreads();
  for (int g = t; g < G; g += threads) {
    double g1 = 0, g2 = 0;
    for (int j = g; j < threads; j += G) {
      g1 += folds[j].x;
      g2 += folds[j].y;
    }
    gstat[g] = finish_stats(g1, g2, static_cast<double>(a.hw) * cpg, a.eps);
  }
  __syncthreads();

  float scale[W], shift[W];
#pragma unroll
  for (int e = 0; e < W; ++e) {
    const float2 st = gstat[(c0 + e) / cpg];
    scale[e] = st.y * to_float(a.gamma[c0 + e]);
    shift[e] = to_float(a.beta[c0 + e]) - st.x * scale[e];
  }
#pragma unroll
  for (int k = 0; k < kPacks; ++k) {
    const int pixel = begin + first_pixel + k * pixels_per_pass;
    if (pixel < end) {
      Pack<T> out;
#pragma unroll
      for (int e = 0; e < W; ++e) out.v[e] = from_float<T>(activate<kSilu>(element(v[k], e) * scale[e] + shift[e]));
      store_pack(a.y + sample_base + static_cast<size_t>(pixel) * C + c0, out);
    }
  }
}

// Element i of a group's cpg * hw elements: NCHW channel-major, NHWC pixel-major.
template <GroupNormLayout kLayout>
__device__ __forceinline__ size_t generic_index(size_t i, int sample, int group, int c, int hw, int cpg) {
  if constexpr (kLayout == GroupNormLayout::NCHW) {
    return (static_cast<size_t>(sample) * c + static_cast<size_t>(group) * cpg) * hw + i;
  } else {
    return (static_cast<size_t>(sample) * hw + i / cpg) * c + static_cast<size_t>(group) * cpg + i % cpg;
  }
}

// Any shape and alignment: one block per (sample, group), three passes over x.
template <typename T, bool kSilu, GroupNormLayout kLayout>
__global__ void __launch_bounds__(kGenericThreads) groupnorm_generic(const T* x, const T* gamma, const T* beta, T* y,
                                                                     int c, int hw, int groups, float eps) {
  __shared__ float scratch[kGenericThreads / 32];
  const int sample = static_cast<int>(blockIdx.x) / groups, group = static_cast<int>(blockIdx.x) % groups;
  const int cpg = c / groups;
  const size_t count = static_cast<size_t>(cpg) * hw;
  auto at = [&](size_t i) { return generic_index<kLayout>(i, sample, group, c, hw, cpg); };
  float s = 0;
  for (size_t i = threadIdx.x; i < count; i += kGenericThreads) s += to_float(x[at(i)]);
  const float mean = block_sum(s, scratch) / static_cast<float>(count);
  float q = 0;
  for (size_t i = threadIdx.x; i < count; i += kGenericThreads) {
    const float d = to_float(x[at(i)]) - mean;
    q += d * d;
  }
  const float rstd = rsqrtf(block_sum(q, scratch) / static_cast<float>(count) + eps);
  for (size_t i = threadIdx.x; i < count; i += kGenericThreads) {
    const int ch = group * cpg + static_cast<int>(kLayout == GroupNormLayout::NCHW ? i / hw : i % cpg);
    const float r = (to_float(x[at(i)]) - mean) * rstd * to_float(gamma[ch]) + to_float(beta[ch]);
    y[at(i)] = from_float<T>(activate<kSilu>(r));
  }
}

template <typename T>
using SplitFn = void (*)(SplitArgs<T>);
template <typename T>
using GenericFn = void (*)(const T*, const T*, const T*, T*, int, int, int, float);

template <typename T>
SplitFn<T> split_kernel(GroupNormLayout layout, bool silu) {
  if (layout == GroupNormLayout::NCHW) return silu ? &groupnorm_nchw_split<T, true> : &groupnorm_nchw_split<T, false>;
  return silu ? &groupnorm_nhwc_split<T, true> : &groupnorm_nhwc_split<T, false>;
}

template <typename T>
GenericFn<T> generic_kernel(GroupNormLayout layout, bool silu) {
  if (layout == GroupNormLayout::NCHW) {
    return silu ? &groupnorm_generic<T, true, GroupNormLayout::NCHW> : &groupnorm_generic<T, false, GroupNormLayout::NCHW>;
  }
  return silu ? &groupnorm_generic<T, true, GroupNormLayout::NHWC> : &groupnorm_generic<T, false, GroupNormLayout::NHWC>;
}

int ceil_div(long long a, long long b) { return static_cast<int>((a + b - 1) / b); }

// Blocks of `fn` that fit on the device at once.
template <typename T>
long long resident_blocks(SplitFn<T> fn, int threads, size_t smem) {
  int per_sm = 0;
  ARCHBENCH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, threads, smem));
  return static_cast<long long>(per_sm) * current_sm_count();
}

// Sets the plan's chunks and grid; false when the unit does not fit the resident blocks.
bool choose_chunks(GroupNormPlan& p, long long units, long long items, long long items_per_block, long long wanted,
                   long long resident) {
  const auto split = split_chunks(units, items, items_per_block, wanted, resident);
  if (!split) return false;
  p.chunks = split->chunks;
  p.chunk_items = split->chunk_items;
  p.grid = static_cast<unsigned>(units * p.chunks);
  return true;
}

template <typename T>
void plan_split(GroupNormPlan& p) {
  constexpr int W = Pack<T>::kSize;
  const GroupNormShape& s = p.shape;
  const int cpg = s.c / s.groups;
  const long long sms = current_sm_count();
  if (static_cast<long long>(s.n) * s.c * s.hw > INT_MAX / 2) return;  // int indices inside a unit
  if (s.layout == GroupNormLayout::NCHW) {
    if (s.hw % W != 0) return;
    const long long units = static_cast<long long>(s.n) * s.groups;
    const long long group_packs = static_cast<long long>(cpg) * s.hw / W;
    p.threads = kNchwThreads;
    p.smem_bytes = 0;
    const long long resident = resident_blocks<T>(split_kernel<T>(s.layout, s.silu), p.threads, p.smem_bytes);
    if (!choose_chunks(p, units, group_packs, static_cast<long long>(kNchwThreads) * kPacks, (2 * sms + units - 1) / units,
                       resident)) {
      return;
    }
    p.workspace_bytes = units * sizeof(unsigned long long) + p.grid * sizeof(float2);
    p.split = true;
    return;
  }
  if (s.c % W != 0) return;
  const int row_packs = s.c / W;
  const int unit_threads = std::lcm(std::lcm(row_packs, 32), s.groups);  // smallest block with fixed channels per thread
  const long long units = s.n;
  // The largest block (fewest chunks, so fewest partial records for each block to combine) whose
  // chunks are all resident at once.
  for (int m = kNhwcMaxThreads / unit_threads; m >= 1; --m) {
    p.threads = unit_threads * m;
    p.smem_bytes = nhwc_smem_bytes(p.threads, W, s.c, s.groups);
    if (p.smem_bytes > 48 * 1024) continue;  // beyond the default dynamic shared memory limit
    const long long pixels_per_block = static_cast<long long>(p.threads / row_packs) * kPacks;
    const long long resident = resident_blocks<T>(split_kernel<T>(s.layout, s.silu), p.threads, p.smem_bytes);
    if (choose_chunks(p, units, s.hw, pixels_per_block, (sms + units - 1) / units, resident)) {
      p.workspace_bytes = units * sizeof(unsigned long long) + static_cast<size_t>(p.grid) * s.groups * sizeof(float2);
      p.split = true;
      return;
    }
  }
}

}  // namespace

std::optional<SplitChunks> split_chunks(long long units, long long items, long long items_per_block, long long wanted,
                                       long long resident) {
  if (units <= 0 || items <= 0 || items_per_block <= 0) return std::nullopt;
  const long long min_chunks = (items + items_per_block - 1) / items_per_block;
  const long long chunks = std::min(std::max(min_chunks, wanted), resident / units);
  if (chunks < min_chunks) return std::nullopt;
  SplitChunks s;
  s.chunk_items = ceil_div(items, chunks);
  s.chunks = ceil_div(items, s.chunk_items);  // drops chunks that would be empty
  return s;
}

GroupNormPlan plan_groupnorm(DType dtype, const GroupNormShape& shape) {
  if (shape.n <= 0 || shape.c <= 0 || shape.hw <= 0 || shape.groups <= 0 || shape.c % shape.groups != 0) {
    throw std::invalid_argument("groupnorm: needs positive sizes and channels a multiple of groups");
  }
  GroupNormPlan p;
  p.dtype = dtype;
  p.shape = shape;
  int device = 0, cooperative = 0;
  ARCHBENCH_CUDA_CHECK(cudaGetDevice(&device));
  ARCHBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  if (cooperative != 0) dispatch_storage(dtype, [&](auto tag) { plan_split<decltype(tag)>(p); });
  if (!p.split) {
    p.threads = kGenericThreads;
    p.chunks = 1;
    p.chunk_items = 0;
    p.grid = static_cast<unsigned>(shape.n * shape.groups);
    p.smem_bytes = 0;
    p.workspace_bytes = 0;
  }
  return p;
}

void launch_groupnorm(const GroupNormPlan& plan, const void* x, const void* gamma, const void* beta, void* y,
                      void* workspace, float eps, cudaStream_t stream) {
  const GroupNormShape& s = plan.shape;
  dispatch_storage(plan.dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto* xt = static_cast<const T*>(x);
    const auto* gt = static_cast<const T*>(gamma);
    const auto* bt = static_cast<const T*>(beta);
    auto* yt = static_cast<T*>(y);
    if (plan.split && workspace != nullptr && all_aligned16(x, y)) {
      const auto units = static_cast<size_t>(s.layout == GroupNormLayout::NCHW ? s.n * s.groups : s.n);
      auto* arrivals = static_cast<unsigned long long*>(workspace);
      SplitArgs<T> args{xt, gt, bt, yt, arrivals, reinterpret_cast<float2*>(arrivals + units), s.c, s.hw, s.groups,
                        plan.chunks, plan.chunk_items, eps};
      void* params[] = {&args};
      ARCHBENCH_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(split_kernel<T>(s.layout, s.silu)),
                                                       dim3(plan.grid), dim3(plan.threads), params, plan.smem_bytes,
                                                       stream));
    } else {
      const auto grid = static_cast<unsigned>(s.n * s.groups);
      generic_kernel<T>(s.layout, s.silu)<<<grid, kGenericThreads, 0, stream>>>(xt, gt, bt, yt, s.c, s.hw, s.groups, eps);
      ARCHBENCH_CHECK_LAUNCH();
    }
  });
}

const void* groupnorm_split_kernel(DType dtype, GroupNormLayout layout, bool silu) {
  return storage_kernel(dtype, [&](auto tag) { return split_kernel<decltype(tag)>(layout, silu); });
}

const void* groupnorm_generic_kernel(DType dtype, GroupNormLayout layout, bool silu) {
  return storage_kernel(dtype, [&](auto tag) { return generic_kernel<decltype(tag)>(layout, silu); });
}

}  // namespace archbench::kernels::norm
