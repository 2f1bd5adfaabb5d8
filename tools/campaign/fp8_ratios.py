#!/usr/bin/env python3
"""Same-run ratios of the own tensor-core GEMMs against their library twins, over several runs.

Usage: fp8_ratios.py RUN.json [RUN.json ...]

For every own wgmma GEMM (FP8 e4m3 and bf16) with a library twin timed in the same run, prints the
medians over the runs of both times, of the ratio library/own (> 1: the own kernel is faster) with
its range, the own kernel's TFLOP/s, and both relative errors against float64 (from the first run).
Exit 1 when a file is unreadable or no pair was timed in every run.
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
        sys.exit(f"fp8_ratios.py: {path}: not an archbench run JSON ({e})")


def timed(op):
    return op is not None and not op.get("failed") and op.get("timing")


def main(paths):
    if not paths:
        sys.exit(__doc__)
    runs = [operators(p) for p in paths]
    print(f"own wgmma GEMM vs its library twin, same-run ratio = library / own (> 1: own faster), {len(runs)} runs")
    print(f"{'operator':42s} {'own us':>8s} {'TFLOP/s':>7s} {'lib us':>8s} {'ratio':>6s} {'range':>11s} "
          f"{'err own':>8s} {'err lib':>8s}")
    rows = 0
    for own_id in sorted(i for i in runs[0] if "/gemm_wgmma/" in i):
        twin_id = own_id.replace("/gemm_wgmma/", "/gemm_cublas/")
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
        print(f"{own_id.removeprefix('matmul/'):42s} {statistics.median(own):8.1f} {tflops:7.0f} "
              f"{statistics.median(lib):8.1f} {statistics.median(ratios):6.3f} {min(ratios):5.3f}-{max(ratios):5.3f} "
              f"{errors[0]:8.1e} {errors[1]:8.1e}")
        rows += 1
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
