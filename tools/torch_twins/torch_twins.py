#!/usr/bin/env python3
"""Time PyTorch at archbench's workload shapes, for the "library twins within 3%" comparison.

Each entry names the archbench operator id it mirrors (family/name/dtype/shape) and builds the
same computation in PyTorch. Timing follows archbench's method: CUDA events around one call,
L2 flushed before each sample, warm-up, median of many. Output: JSON {id: {median_us, ...}}.

Usage: torch_twins.py [--filter GLOB] [--json FILE] [--compare ARCHBENCH_RESULTS.json]
"""
import argparse
import fnmatch
import json
import os
import sys

import torch
import torch.nn.functional as F

DT = {"f32": torch.float32, "tf32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def rand(*shape, dtype, lo=-1.0, hi=1.0):
    return (torch.rand(*shape, device="cuda", dtype=torch.float32) * (hi - lo) + lo).to(dtype)


def flux_apply_rope(x, pe):
    """Flux's apply_rope (src/flux/math.py): rotate (x[2i], x[2i+1]) pairs by the pe table, in fp32."""
    xf = x.float().reshape(*x.shape[:-1], -1, 1, 2)
    out = pe[..., 0] * xf[..., 0] + pe[..., 1] * xf[..., 1]
    return out.reshape(*x.shape).type_as(x)


def timestep_embedding(t, dim, max_period=10000):
    """SD1.5's openaimodel timestep_embedding: [cos(t f), sin(t f)], f = exp(-ln(max_period) i / half)."""
    import math
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, device=t.device, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


def twins():
    """Yields (archbench id, dtype name, builder). A builder returns a zero-argument callable."""
    for d in ("f32", "f16", "bf16"):
        t = DT[d]
        yield f"norm/layernorm/{d}/M8192_N320", d, lambda t=t: (
            lambda x=rand(8192, 320, dtype=t), w=rand(320, dtype=t), b=rand(320, dtype=t):
            lambda: F.layer_norm(x, (320,), w, b, 1e-5))()
        yield f"norm/layernorm_noaffine/{d}/M4608_N3072", d, lambda t=t: (
            lambda x=rand(4608, 3072, dtype=t): lambda: F.layer_norm(x, (3072,), None, None, 1e-6))()
        yield f"norm/rmsnorm128/{d}/B1_H24_N4608_D128", d, lambda t=t: (
            lambda x=rand(1, 24, 4608, 128, dtype=t), w=rand(128, dtype=t):
            lambda: F.rms_norm(x, (128,), w, 1e-6))()
        yield f"norm/groupnorm/{d}/B2_C320_H64_W64_G32", d, lambda t=t: (
            lambda x=rand(2, 320, 64, 64, dtype=t), w=rand(320, dtype=t), b=rand(320, dtype=t):
            lambda: F.group_norm(x, 32, w, b, 1e-6))()
        yield f"norm/groupnorm_silu/{d}/B2_C320_H64_W64_G32", d, lambda t=t: (
            lambda x=rand(2, 320, 64, 64, dtype=t), w=rand(320, dtype=t), b=rand(320, dtype=t):
            lambda: F.silu(F.group_norm(x, 32, w, b, 1e-6)))()
        yield f"elementwise/silu/{d}/B2_C320_H64_W64", d, lambda t=t: (
            lambda x=rand(2, 320, 64, 64, dtype=t): lambda: F.silu(x))()
        yield f"elementwise/gelu_tanh/{d}/M4608_N12288", d, lambda t=t: (
            lambda x=rand(4608, 12288, dtype=t): lambda: F.gelu(x, approximate="tanh"))()
        yield f"elementwise/geglu/{d}/M8192_N1280", d, lambda t=t: (
            lambda x=rand(8192, 2560, dtype=t): lambda: (lambda h, g: h * F.gelu(g))(*x.chunk(2, dim=-1)))()
        yield f"elementwise/residual_add/{d}/B2_C320_H64_W64", d, lambda t=t: (
            lambda a=rand(2, 320, 64, 64, dtype=t), b=rand(2, 320, 64, 64, dtype=t): lambda: a + b)()
        yield f"elementwise/upsample_nearest2x/{d}/B2_C1280_H16_W16", d, lambda t=t: (
            lambda x=rand(2, 1280, 16, 16, dtype=t): lambda: F.interpolate(x, scale_factor=2, mode="nearest"))()
    for d in ("f32", "f16", "bf16"):
        t = DT[d]
        yield f"norm/groupnorm_nhwc/{d}/B2_H64_W64_C320_G32", d, lambda t=t: (
            lambda x=rand(2, 320, 64, 64, dtype=t).to(memory_format=torch.channels_last), w=rand(320, dtype=t),
            b=rand(320, dtype=t): lambda: F.group_norm(x, 32, w, b, 1e-6))()
        yield f"norm/groupnorm_nhwc_silu/{d}/B2_H64_W64_C320_G32", d, lambda t=t: (
            lambda x=rand(2, 320, 64, 64, dtype=t).to(memory_format=torch.channels_last), w=rand(320, dtype=t),
            b=rand(320, dtype=t): lambda: F.silu(F.group_norm(x, 32, w, b, 1e-6)))()
        yield f"elementwise/rope/{d}/B1_H24_N4608_D128", d, lambda t=t: (
            lambda x=rand(1, 24, 4608, 128, dtype=t), pe=rand(1, 1, 4608, 64, 2, 2, dtype=torch.float32):
            lambda: flux_apply_rope(x, pe))()
        yield f"elementwise/timestep_embedding/{d}/B2_D320", d, lambda t=t: (
            lambda ts=torch.tensor([981.0, 981.0], device="cuda"): lambda: timestep_embedding(ts, 320).to(t))()
    # Convolutions: cuDNN through torch (channels_last = NHWC), the shapes of kernels/conv.
    conv_shapes = [((2, 64, 64, 320, 320, 3, 1), True), ((2, 16, 16, 1280, 1280, 3, 1), False),
                   ((2, 8, 8, 1280, 1280, 3, 1), False), ((2, 16, 16, 2560, 1280, 3, 1), False),
                   ((2, 64, 64, 320, 320, 3, 2), True), ((2, 32, 32, 960, 640, 1, 1), True),
                   ((2, 64, 64, 4, 320, 3, 1), True), ((2, 128, 128, 320, 320, 3, 1), False)]
    for (n, h, w, c, k, r, stride), all_variants in conv_shapes:
        shape = f"B{n}_C{c}_H{h}_W{w}_K{k}_{r}x{r}_s{stride}"
        for layout in ("nhwc", "nchw"):
            for d in ("f32", "tf32", "f16", "bf16"):
                if not all_variants and (layout == "nchw" or d in ("f32", "tf32")):
                    continue
                fmt_ = torch.channels_last if layout == "nhwc" else torch.contiguous_format
                yield f"conv/conv_cudnn_{layout}/{d}/{shape}", d, lambda t=DT[d], n=n, h=h, w=w, c=c, k=k, r=r, \
                    stride=stride, fmt_=fmt_: (
                    lambda x=rand(n, c, h, w, dtype=t).to(memory_format=fmt_),
                    wt=rand(k, c, r, r, dtype=t).to(memory_format=fmt_):
                    lambda: F.conv2d(x, wt, None, stride, (r - 1) // 2))()
    # Attention: PyTorch's cuDNN SDPA backend (the default on sm_90) and its FA2 flash backend.
    attn_shapes = [(2, 8, 4096, 4096, 40), (2, 8, 4096, 77, 40), (2, 10, 4096, 4096, 64), (2, 20, 1024, 1024, 64),
                   (1, 24, 4608, 4608, 128), (2, 24, 4429, 4429, 64), (2, 8, 1024, 1024, 80), (2, 8, 256, 256, 160)]
    for (b, hh, nq, nk, dd) in attn_shapes:
        shape = f"B{b}_H{hh}_Nq{nq}_Nk{nk}_D{dd}"
        for d in ("f16", "bf16"):
            for name, backend in (("sdpa_cudnn", "cudnn"), ("torch_flash", "flash")):
                def build(t=DT[d], b=b, hh=hh, nq=nq, nk=nk, dd=dd, backend=backend):
                    q, kk, v = rand(b, hh, nq, dd, dtype=t), rand(b, hh, nk, dd, dtype=t), rand(b, hh, nk, dd, dtype=t)
                    select_sdpa_backend(backend)
                    return lambda: F.scaled_dot_product_attention(q, kk, v)
                yield f"attention/{name}/{d}/{shape}", d, build
    # cuBLAS twins: torch.matmul on the same (M, N, K), A row-major [M,K] times B^T.
    for (m, n, k) in ((8192, 960, 320), (8192, 2560, 320), (4608, 12288, 3072), (4096, 4096, 4096)):
        for d in ("f32", "tf32", "f16", "bf16"):
            yield f"matmul/gemm_cublas/{d}/M{m}_N{n}_K{k}", d, lambda t=DT[d], m=m, n=n, k=k: (
                lambda a=rand(m, k, dtype=t), b=rand(n, k, dtype=t): lambda: torch.matmul(a, b.t()))()


def select_sdpa_backend(backend):
    """Enables exactly one SDPA backend through the global switches, which stay in force for the timed
    calls. (Entering sdpa_kernel(...) without leaving it did not switch: both entries ran cuDNN.)"""
    torch.backends.cuda.enable_flash_sdp(backend == "flash")
    torch.backends.cuda.enable_cudnn_sdp(backend == "cudnn")
    torch.backends.cuda.enable_mem_efficient_sdp(False)
    torch.backends.cuda.enable_math_sdp(False)


# One timing method with `archbench framework`: its probe's events-around-one-call loop (cold L2, a GPU
# spin ahead of the call so that PyTorch's host cost is not GPU time, median) and its profiler helper.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "framework"))
import probe_timing  # noqa: E402


def kernel_names(fn):
    """The CUDA kernels one call launches, so the JSON shows which backend ran."""
    return sorted(k["name"] for k in probe_timing.kernel_names(torch, fn))


def time_us(fn, flush, min_samples=30, budget_s=1.0):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    host_us = probe_timing.time_host_us(torch, fn)  # sizes the spin that keeps the GPU ahead of the host
    return probe_timing.time_gpu_us(torch, fn, flush, min_samples, budget_s, host_us)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--filter", default="*")
    ap.add_argument("--json")
    ap.add_argument("--compare", help="archbench run --json output to set against")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("torch_twins: no CUDA device", file=sys.stderr)
        return 3
    probe_timing.init(torch)  # the SM clock and the stream hold, as the framework probe times
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(max(2 * l2, 1 << 20), dtype=torch.uint8, device="cuda")
    out = {"torch": torch.__version__, "cuda": torch.version.cuda,
           "cudnn": torch.backends.cudnn.version(), "device": torch.cuda.get_device_name(0), "operators": {}}
    for op_id, d, build in twins():
        if not fnmatch.fnmatch(op_id, args.filter):
            continue
        torch.backends.cuda.matmul.allow_tf32 = d == "tf32"
        torch.backends.cudnn.allow_tf32 = d == "tf32"
        try:
            fn = build()
            med, n, mhz, _ = time_us(fn, flush)
        except Exception as e:  # a backend that refuses a shape (e.g. flash with d = 40) says so
            out["operators"][op_id] = {"error": str(e).splitlines()[0][:200]}
            continue
        out["operators"][op_id] = {"median_us": med, "samples": n, "sm_mhz": mhz}
        if op_id.startswith("attention/"):
            out["operators"][op_id]["kernels"] = kernel_names(fn)
        del fn
        torch.cuda.empty_cache()
    ours = {}
    if args.compare:
        with open(args.compare) as f:
            run = json.load(f)
        for dev in run.get("devices", [run]):
            for op in dev.get("operators", []):
                t = op.get("timing") or {}
                if t.get("median_ms") is not None:
                    ours[op["id"]] = t["median_ms"] * 1e3
    print(f"{'operator':58s} {'torch us':>10s} {'archbench us':>12s} {'torch/ab':>9s}")
    for op_id, r in out["operators"].items():
        if "error" in r:
            print(f"{op_id:58s} torch error: {r['error']}")
            continue
        ab = ours.get(op_id)
        ratio = f"{r['median_us'] / ab:9.2f}" if ab else "        -"
        print(f"{op_id:58s} {r['median_us']:10.2f} {ab if ab else float('nan'):12.2f} {ratio}"
              + ("  " + ", ".join(k[:40] for k in r["kernels"]) if r.get("kernels") else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
