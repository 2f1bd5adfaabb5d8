#!/usr/bin/env python3
"""The same kernel timed through the framework (archbench framework --json) and through archbench's own
twin (archbench run --json): one line per framework op that has a timed twin, the ratio, and whether the
two launch the same kernel family. Usage: compare_twins.py FRAMEWORK.json RUN.json"""
import json
import statistics
import sys

fw, run = (json.load(open(p)) for p in sys.argv[1:3])
twin_us = {}
for dev in run.get("devices", [run]):
    for op in dev.get("operators", []):
        t = op.get("timing") or {}
        if t.get("median_ms") is not None:
            twin_us[op["id"]] = t["median_ms"] * 1e3
ratios = []
for op in fw["ops"]:
    d = op["variants"][0]
    twin = op.get("twin")
    if twin is None or twin not in twin_us or d.get("gpu_us") is None:
        continue
    r = d["gpu_us"] / twin_us[twin]
    ratios.append(r)
    print("%-52s torch %9.1f us  archbench %9.1f us  %.3f" % (op["id"][10:], d["gpu_us"], twin_us[twin], r))
if ratios:
    print("ops %d, median torch/archbench %.3f, within 3%%: %d" % (len(ratios), statistics.median(ratios),
                                                                 sum(abs(r - 1) <= 0.03 for r in ratios)))
