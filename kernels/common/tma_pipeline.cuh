// The pieces of a Hopper copy pipeline as inline PTX: mbarriers, bulk tensor copies (TMA) that
// complete on them, multicast into a cluster, bulk tensor stores tracked as groups, cluster
// identity and barrier. Device code for
// sm_90 and newer only.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace archbench::kernels::tma {

__device__ __forceinline__ uint32_t smem_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void barrier_init(uint32_t bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals) : "memory");
}

// Makes initialized barriers visible to the copy engine and to the other CTAs of the cluster.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// Orders this thread's shared-memory accesses through the generic proxy (ordinary loads and
// stores) against those through the async proxy (bulk copies, wgmma operand reads).
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// Spins until the barrier's phase of this parity has completed.
__device__ __forceinline__ void barrier_wait(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (done == 0);
}

// One arrival that also announces `bytes` of copies still to land on this barrier.
__device__ __forceinline__ void barrier_arrive_expect_bytes(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

// One arrival on a barrier of this CTA.
__device__ __forceinline__ void barrier_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// One arrival on the barrier at the same shared-memory offset in CTA `cta` of this cluster.
__device__ __forceinline__ void barrier_arrive_in(uint32_t bar, uint32_t cta) {
  asm volatile(
      "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(bar),
      "r"(cta)
      : "memory");
}

__device__ __forceinline__ void prefetch_map(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// The `full` mbarriers of a ring of Stages shared-memory stages that the copy engine fills, one per
// stage, 8 bytes apart from `first`: local tile t goes to stage t % Stages, in that stage's use
// t / Stages, whose phase parity wait(t) checks. One thread arms the stage of each tile (arrive
// with the bytes to come, then the copies on the returned barrier); any thread may wait.
template <int Stages>
struct RingBarriers {
  uint32_t first;

  // By one thread before any copy; the block synchronizes before anyone waits.
  __device__ __forceinline__ void init() const {
    for (int s = 0; s < Stages; ++s) barrier_init(first + 8 * s, 1);
    fence_barrier_init();
  }
  // The barrier of stage `stage`, armed for the `bytes` its next tile's copies bring.
  __device__ __forceinline__ uint32_t arm(int stage, uint32_t bytes) const {
    const uint32_t bar = first + 8 * stage;
    barrier_arrive_expect_bytes(bar, bytes);
    return bar;
  }
  __device__ __forceinline__ void wait(int t) const { barrier_wait(first + 8 * (t % Stages), (t / Stages) & 1); }
};

// Copies the 2-D box at (c0 innermost, c1) into shared memory; completes on `bar`. Parts of the
// box outside the tensor read as zero and still count their bytes.
__device__ __forceinline__ void load_2d(uint32_t dst, const CUtensorMap* map, uint32_t bar, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(
          dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1)
      : "memory");
}

// The 3-D box at (c0 innermost, c1, c2), likewise.
__device__ __forceinline__ void load_3d(uint32_t dst, const CUtensorMap* map, uint32_t bar, int c0, int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];\n" ::
          "r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
}

// The 4-D box at (c0 innermost, c1, c2, c3), likewise (an NHWC activation tensor: c, w, h, n).
__device__ __forceinline__ void load_4d(uint32_t dst, const CUtensorMap* map, uint32_t bar, int c0, int c1, int c2,
                                        int c3) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], "
      "[%2];\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
      : "memory");
}

// The same 2-D copy delivered to the same offset (and barrier offset) in every CTA of `cta_mask`.
__device__ __forceinline__ void load_2d_multicast(uint32_t dst, const CUtensorMap* map, uint32_t bar, int c0, int c1,
                                                  uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1), "h"(cta_mask)
      : "memory");
}

// Copies the swizzled shared-memory box at `src` to the 2-D box at (c0 innermost, c1) of the
// tensor; parts of the box outside the tensor are not written. Tracked by the issuing thread's
// bulk groups (store_commit, store_wait_read). A CTA may exit once its stores have read their
// shared memory: the global writes complete before the kernel does.
__device__ __forceinline__ void store_2d(const CUtensorMap* map, uint32_t src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                   reinterpret_cast<uint64_t>(map)),
               "r"(src), "r"(c0), "r"(c1)
               : "memory");
}

// Closes this thread's stores issued since the last commit into one group.
__device__ __forceinline__ void store_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }

// Waits until at most N of this thread's store groups still read their shared memory (older ones
// may still be writing global memory, but their source may be overwritten).
template <int N>
__device__ __forceinline__ void store_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}

// Barrier `id` (1-15; 0 is __syncthreads) over the first `threads` threads that reach it, a
// multiple of 32: lets one warpgroup synchronize without the others.
__device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t cluster_index() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%clusterid.x;\n" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t cluster_count() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%nclusterid.x;\n" : "=r"(r));
  return r;
}

// Every thread of every CTA in the cluster; orders shared-memory (and barrier) accesses across it.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}

}  // namespace archbench::kernels::tma
