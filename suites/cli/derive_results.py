#!/usr/bin/env python3
"""Derives test variants of a run results file (archbench.run) for the CLI gate tests.
Usage: derive_results.py IN OUT [--add-operator ID]... [--missing] [--keep GLOB]
  --add-operator ID  a copy of the first operator under another id (a two-operator run)
  --missing          every operator's image verdict becomes `missing` (an image regression)
  --keep GLOB        only the operators matching GLOB, recorded as the run's --filter selection
"""
import argparse
import copy
import fnmatch
import json

p = argparse.ArgumentParser()
p.add_argument("inp")
p.add_argument("out")
p.add_argument("--add-operator", action="append", default=[])
p.add_argument("--missing", action="store_true")
p.add_argument("--keep")
a = p.parse_args()
run = json.load(open(a.inp))
ops = run["devices"][0]["operators"]
for new_id in a.add_operator:
    op = copy.deepcopy(ops[0])
    op["id"] = new_id
    op["family"], op["name"], op["dtype"], op["shape"] = new_id.split("/")
    ops.append(op)
registered = len(ops)
if a.missing:
    for op in ops:
        op["image"].update(status="missing", label="missing", cause="built for SASS sm_80 and PTX none",
                           fix="add 9.0 to ARCHBENCH_ARCH_LIST")
        op["failed"] = True
if a.keep:
    ops[:] = [op for op in ops if fnmatch.fnmatch(op["id"], a.keep)]
    run["selection"] = {"filter": a.keep, "dtypes": [], "selected": len(ops), "registered": registered}
json.dump(run, open(a.out, "w"), indent=1)
