#!/usr/bin/env python3
"""Same-run ratios of own kernels against their library twins, over several runs.

Usage: twin_ratios.py RUN.json [RUN.json ...]

For every own kernel of PAIRS (the Hopper GEMM in f16, bf16 and FP8 against cuBLAS/cuBLASLt, the
Hopper and the Ampere convolutions against cuDNN, the Hopper flash attention in f16, bf16 and FP8
against cuDNN's) with its twin timed in the same run, prints the
medians over the runs of both times, of the ratio library/own (> 1: the own kernel is faster) with
its range, the own kernel's TFLOP/s, and both relative errors against float64 (from the first run).
Exit 1 when a file is unreadable or no pair was timed in any run.
"""
import json
import statistics
import sys


def operators(path):
    try:
        with open(path) as f:
            run = json.load(f)
        return {o["id"]: o for device in run["devices"] for o in device["operators"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"twin_ratios.py: {path}: not an archbench run JSON ({e})")


def timed(op):
    return op is not None and not op.get("failed") and op.get("timing")


# (family/own name, family/twin name): the twin runs the same dtype and shape.
PAIRS = [("matmul/gemm_wgmma", "matmul/gemm_cublas"), ("conv/conv_wgmma", "conv/conv_cudnn_nhwc"),
         ("conv/conv_tc", "conv/conv_cudnn_nhwc"), ("attention/flash_wgmma", "attention/sdpa_cudnn")]


def main(paths):
    if not paths:
        sys.exit(__doc__)
    runs = [operators(p) for p in paths]
    print(f"own kernel vs its library twin, same-run ratio = library / own (> 1: own faster), {len(runs)} runs")
    print(f"{'operator':42s} {'own us':>8s} {'TFLOP/s':>7s} {'lib us':>8s} {'ratio':>6s} {'range':>11s} "
          f"{'err own':>8s} {'err lib':>8s}")
    rows = 0
    pairs_of_ids = [(i, twin + i[len(own):]) for own, twin in PAIRS for i in sorted(runs[0]) if i.startswith(own + "/")]
    for own_id, twin_id in pairs_of_ids:
        pairs = [(r.get(own_id), r.get(twin_id)) for r in runs]
        pairs = [(o, t) for o, t in pairs if timed(o) and timed(t)]
        if len(pairs) < len(runs):
            print(f"{own_id}: timed with its twin in {len(pairs)} of {len(runs)} runs")
            if not pairs:
                continue
        own = [o["timing"]["median_ms"] * 1e3 for o, _ in pairs]
        lib = [t["timing"]["median_ms"] * 1e3 for _, t in pairs]
        ratios = [l / o for l, o in zip(lib, own)]
        tflops = pairs[0][0]["flops"] / (statistics.median(own) * 1e-6) / 1e12
        errors = pairs[0][0]["correctness"]["rel_error"], pairs[0][1]["correctness"]["rel_error"]
        print(f"{own_id.split('/', 1)[1]:42s} {statistics.median(own):8.1f} {tflops:7.0f} "
              f"{statistics.median(lib):8.1f} {statistics.median(ratios):6.3f} {min(ratios):5.3f}-{max(ratios):5.3f} "
              f"{errors[0]:8.1e} {errors[1]:8.1e}")
        rows += 1
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
