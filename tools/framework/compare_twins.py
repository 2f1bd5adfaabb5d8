#!/usr/bin/env python3
"""The same kernel timed through the framework (archbench framework --json) and through archbench's own
twin (archbench run --json): one line per framework op that has a timed twin, the time ratio, the SM
clocks both ran at, and the ratio in SM cycles (time x clock), which compares a power-bound kernel
across clocks. Only pairs that launch the same kernel (`--same-kernel KERNELS.json`, optional) are
expected to agree. Usage: compare_twins.py FRAMEWORK.json RUN.json"""
import json
import statistics
import sys

fw, run = (json.load(open(p)) for p in sys.argv[1:3])
twin = {}
for dev in run.get("devices", [run]):
    for op in dev.get("operators", []):
        t = op.get("timing") or {}
        if t.get("median_ms") is not None:
            twin[op["id"]] = (t["median_ms"] * 1e3, t.get("median_sm_mhz") or None, op.get("impl"))
times, cycles = [], []
print("%-46s %10s %10s %6s %6s %6s %6s" % ("framework op", "torch us", "ab us", "t/ab", "MHz", "ab MHz", "cyc"))
for op in fw["ops"]:
    d = op["variants"][0]
    if op.get("twin") not in twin or d.get("gpu_us") is None:
        continue
    ab_us, ab_mhz, impl = twin[op["twin"]]
    r = d["gpu_us"] / ab_us
    mhz = d.get("sm_mhz")
    c = r * mhz / ab_mhz if mhz and ab_mhz else None
    if impl != "own":  # own twins are archbench's kernels, not the framework's: no agreement expected
        times.append(r)
        if c is not None:
            cycles.append(c)
    print("%-46s %10.1f %10.1f %6.3f %6s %6s %6s%s" % (op["id"][10:56], d["gpu_us"], ab_us, r, "%.0f" % mhz if mhz else "-",
                                                     "%.0f" % ab_mhz if ab_mhz else "-", "%.3f" % c if c else "-",
                                                     "" if impl != "own" else "  (own twin)"))
for name, rs in (("time", times), ("cycles", cycles)):
    if rs:
        print("library twins by %s: %d pairs, median torch/archbench %.3f, within 3%%: %d" % (
            name, len(rs), statistics.median(rs), sum(abs(x - 1) <= 0.03 for x in rs)))
