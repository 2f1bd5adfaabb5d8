#!/usr/bin/env python3
"""The same kernel timed through the framework (archbench framework --json) and through archbench's own
twin (archbench run --json): one line per framework op that has a timed twin, the time ratio, the SM
clocks both ran at, and the ratio in SM cycles (time x clock), which compares a power-bound kernel
across clocks. Only pairs that launch the same kernel (`--same-kernel KERNELS.json`, optional) are
expected to agree. Several files of each kind (told apart by their content) compare the medians of the
repeated measurements, with each side's range across them.
Usage: compare_twins.py FRAMEWORK.json [FRAMEWORK.json...] RUN.json [RUN.json...]"""
import json
import statistics
import sys

docs = [json.load(open(p)) for p in sys.argv[1:]]
fws = [d for d in docs if "ops" in d]
runs = [d for d in docs if "ops" not in d]
if not fws or not runs:
    sys.exit("usage: compare_twins.py FRAMEWORK.json [...] RUN.json [...] (at least one of each)")
twin = {}  # operator id -> ([us per run], [MHz], impl)
for run in runs:
    for dev in run.get("devices", [run]):
        for op in dev.get("operators", []):
            t = op.get("timing") or {}
            if t.get("median_ms") is not None:
                e = twin.setdefault(op["id"], ([], [], op.get("impl")))
                e[0].append(t["median_ms"] * 1e3)
                if t.get("median_sm_mhz"):
                    e[1].append(t["median_sm_mhz"])
framework = {}  # framework op id -> ([us per run], [MHz], twin id)
for fw in fws:
    for op in fw["ops"]:
        d = op["variants"][0]
        if op.get("twin") and d.get("gpu_us") is not None:
            e = framework.setdefault(op["id"], ([], [], op["twin"]))
            e[0].append(d["gpu_us"])
            if d.get("sm_mhz"):
                e[1].append(d["sm_mhz"])
med = statistics.median
spread = lambda v: "%4.1f%%" % (100 * (max(v) - min(v)) / med(v)) if len(v) > 1 else "    -"
times, cycles = [], []
print("%-46s %9s %5s %9s %5s %6s %6s %6s %6s" % ("framework op", "torch us", "range", "ab us", "range", "t/ab", "MHz",
                                                "ab MHz", "cyc"))
for op_id, (us, mhz, twin_id) in framework.items():
    if twin_id not in twin:
        continue
    ab_us, ab_mhz, impl = twin[twin_id]
    r = med(us) / med(ab_us)
    m, am = (med(mhz) if mhz else None), (med(ab_mhz) if ab_mhz else None)
    c = r * m / am if m and am else None
    if impl != "own":  # own twins are archbench's kernels, not the framework's: no agreement expected
        times.append(r)
        if c is not None:
            cycles.append(c)
    print("%-46s %9.1f %5s %9.1f %5s %6.3f %6s %6s %6s%s" % (
        op_id[10:56], med(us), spread(us), med(ab_us), spread(ab_us), r, "%.0f" % m if m else "-",
        "%.0f" % am if am else "-", "%.3f" % c if c else "-", "" if impl != "own" else "  (own twin)"))
for name, rs in (("time", times), ("cycles", cycles)):
    if rs:
        print("library twins by %s: %d pairs, median torch/archbench %.3f, within 3%%: %d" % (
            name, len(rs), statistics.median(rs), sum(abs(x - 1) <= 0.03 for x in rs)))
