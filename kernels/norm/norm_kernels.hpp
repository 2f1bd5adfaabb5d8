// Normalizations of a diffusion step (docs/reference/workload.md, "The models behind the shapes"): LayerNorm
// (SD1.5 affine; Flux: no affine, eps 1e-6), RMSNorm over the head dim (Flux QK-norm), GroupNorm(32) with an
// optional fused SiLU (SD ResBlocks) in NCHW and NHWC. fp32 statistics for every dtype; 16-byte packs held in
// registers, so each kernel reads x once and writes y once.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <optional>

#include "harness/ops/dtype.hpp"

namespace archbench::kernels::norm {

// y = (x - mean) / sqrt(var + eps) [* gamma + beta] over each row of x [rows, cols]; gamma and
// beta both null for no affine.
void launch_layernorm(DType dtype, const void* x, const void* gamma, const void* beta, void* y, size_t rows, int cols,
                      float eps, cudaStream_t stream);
// y = x / sqrt(mean(x^2) + eps) * weight over rows of 128.
void launch_rmsnorm128(DType dtype, const void* x, const void* weight, void* y, size_t rows, float eps,
                       cudaStream_t stream);

enum class GroupNormLayout { NCHW, NHWC };

// GroupNorm over x [n, c, hw] (NCHW) or [n, hw, c] (NHWC), `groups` groups of c / groups
// channels, per-channel gamma and beta, optionally followed by SiLU.
struct GroupNormShape {
  int n = 0, c = 0, hw = 0, groups = 0;
  GroupNormLayout layout = GroupNormLayout::NCHW;
  bool silu = false;
};

// How a launch covers the tensor. Split: a group (NCHW) or a sample (NHWC) is a sync unit cut
// into `chunks` blocks that each hold their chunk in registers, publish its statistics to the
// workspace, wait for the unit's other blocks, combine, and normalize: one read and one write of
// x over the whole chip. The blocks of a unit must be co-resident, so the launch is cooperative
// and `grid` is within the device's occupancy. Not split (odd shapes, no cooperative launch, a
// tensor too large to hold): one block per group, reading x three times.
struct GroupNormPlan {
  DType dtype = DType::F32;
  GroupNormShape shape;
  bool split = false;
  int threads = 0;
  int chunks = 0;       // blocks per sync unit
  int chunk_items = 0;  // per block: packs of the group (NCHW) or pixels of the sample (NHWC)
  unsigned grid = 0;
  size_t smem_bytes = 0;
  size_t workspace_bytes = 0;  // zero-filled once before the first launch; 0 when not split
};

// How a split cuts one sync unit of `items` work items (packs or pixels) into chunks, one block
// each: at least enough that a chunk fits a block (items_per_block), `wanted` if that is more,
// never more than `resident` blocks for all `units` units together; no chunk is empty. Nothing
// when even the minimum does not fit.
struct SplitChunks {
  int chunks = 0;
  int chunk_items = 0;
};
[[nodiscard]] std::optional<SplitChunks> split_chunks(long long units, long long items, long long items_per_block,
                                                      long long wanted, long long resident);

// The plan for the current device (reads its SM count and the kernel's occupancy; no sync).
[[nodiscard]] GroupNormPlan plan_groupnorm(DType dtype, const GroupNormShape& shape);
// Falls back to the unsplit kernel when x or y is not 16-byte aligned.
void launch_groupnorm(const GroupNormPlan& plan, const void* x, const void* gamma, const void* beta, void* y,
                      void* workspace, float eps, cudaStream_t stream);

// Host stubs for the image probe (the kernels each launch may use on 16-byte aligned buffers).
const void* layernorm_kernel(DType dtype, bool affine, int cols);
const void* rmsnorm128_kernel(DType dtype);
const void* groupnorm_split_kernel(DType dtype, GroupNormLayout layout, bool silu);
const void* groupnorm_generic_kernel(DType dtype, GroupNormLayout layout, bool silu);

}  // namespace archbench::kernels::norm
