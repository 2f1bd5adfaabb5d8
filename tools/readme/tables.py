#!/usr/bin/env python3
"""Markdown tables for docs/results.md (via results_page.py) from a real run: archbench run --json (and torch_twins --json).

Usage: tables.py RUN.json [MORE_RUN.json ...] [--torch TORCH.json]
Later runs replace earlier ones operator by operator (re-measured families after a change); the header names
every run's revision and ceilings.
Prints: per family, one row per operator and shape with a cell per dtype (median us, TFLOP/s or GB/s, % of
ceiling); own kernels against their library twins; library twins against PyTorch at the same shapes.
"""
import json
import sys
from collections import OrderedDict

DTYPES = ["f32", "tf32", "f16", "bf16"]


def load_ops(path):
    run = json.load(open(path))
    dev = run["devices"][0]
    return run, dev, OrderedDict((o["id"], o) for o in dev["operators"])


def cell(o):
    t = o.get("timing")
    if not t:
        return "–"
    us = t["median_ms"] * 1e3
    rate = f"{t['tflops']:.0f} TF/s" if o["flops"] > 0 else f"{t['gbps']:.0f} GB/s"
    return f"{us:.1f} µs · {rate} · {t['pct_of_ceiling']:.0f}%"


def family_tables(ops):
    fams = OrderedDict()
    for i, o in ops.items():
        fams.setdefault(o["family"], OrderedDict()).setdefault((o["name"], o["shape"]), {})[o["dtype"]] = o
    for fam, rows in fams.items():
        used = [d for d in DTYPES if any(d in r for r in rows.values())]
        print(f"\n**{fam}** ({sum(len(r) for r in rows.values())} operators)\n")
        print("| operator | shape | " + " | ".join(used) + " |")
        print("|---|---|" + "---|" * len(used))
        for (name, shape), r in rows.items():
            print(f"| {name} | {shape} | " + " | ".join(cell(r[d]) if d in r else "" for d in used) + " |")


def median_us(o):
    return o["timing"]["median_ms"] * 1e3 if o and o.get("timing") else None


def twin_table(ops):
    print("\n| own operator | dtype | shape | own µs | twin | twin µs | own time / twin time | own error / twin error |")
    print("|---|---|---|---|---|---|---|---|")
    by_id = ops
    for i, o in ops.items():
        c = o.get("correctness") or {}
        tw = c.get("twin")
        if not tw:
            continue
        t = by_id.get(tw["id"])
        a, b = median_us(o), median_us(t)
        if a is None or b is None:
            continue
        err = f"{c['rel_error'] / tw['rel_error']:.2f}" if tw["rel_error"] > 0 else "–"
        print(f"| {o['name']} | {o['dtype']} | {o['shape']} | {a:.1f} | {t['name']} | {b:.1f} | {a / b:.2f} | {err} |")


def torch_table(ops, torch_path):
    t = json.load(open(torch_path))
    print(f"\nPyTorch {t['torch']} (CUDA {t['cuda']}, cuDNN {t['cudnn']}) on the same device model, same shapes, same method "
          "(CUDA events, L2 flushed, median), in its own process (the command above names both files):\n")
    print("| PyTorch | archbench | archbench µs | PyTorch µs | PyTorch / archbench |")
    print("|---|---|---|---|---|")
    for i, r in t["operators"].items():
        # The same id, or for PyTorch's FlashAttention-2 backend the portable flash kernel it mirrors.
        ours = i.replace("attention/torch_flash/", "attention/flash_tc/")
        o = ops.get(ours)
        if "error" in r or o is None or median_us(o) is None:
            continue
        a = median_us(o)
        print(f"| {i} | {ours.split('/')[1]} | {a:.1f} | {r['median_us']:.1f} | {r['median_us'] / a:.2f} |")


def main():
    args = sys.argv[1:]
    torch_path = None
    if "--torch" in args:
        k = args.index("--torch")
        torch_path = args[k + 1]
        del args[k:k + 2]
    revision = None  # the tree's commit, when the binary's stamp is stale (results_page.py --revision)
    if "--revision" in args:
        k = args.index("--revision")
        revision = args[k + 1]
        del args[k:k + 2]
    ops = OrderedDict()
    for n, path in enumerate(args):
        run, dev, these = load_ops(path)
        c = dev.get("ceilings") or {}
        families = sorted({o["family"] for o in these.values()})
        print(f"{'Run' if n == 0 else 'Then'} on {dev['device']['name']} at {'the tree of ' + revision if revision else 'revision ' + run['build'].get('git_revision', '?')}"
              f" ({', '.join(families)}; {len(these)} operators); ceilings measured in that run: f32 "
              f"{c.get('f32_tflops', 0):.1f}, tf32 {c.get('tf32_tflops', 0):.0f}, f16 {c.get('f16_tflops', 0):.0f}, "
              f"bf16 {c.get('bf16_tflops', 0):.0f} TFLOP/s, copy {c.get('dram_gbps', 0):.0f} GB/s.\n")
        ops.update(these)
    family_tables(ops)
    print("\nOwn kernels against their library twins (same inputs; the error ratio is the oracle, must be ≤ 3):")
    twin_table(ops)
    if torch_path:
        torch_table(ops, torch_path)


if __name__ == "__main__":
    main()
