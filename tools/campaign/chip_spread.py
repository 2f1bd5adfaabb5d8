#!/usr/bin/env python3
"""Chip-to-chip and run-to-run spread per family, from the full runs of two chips of one product.

Usage: chip_spread.py --chip RUN.json [RUN.json ...] --chip RUN.json [RUN.json ...]

For every operator timed in every run of both chips: the chip-to-chip difference, |median A - median B| / the
mean of the two (each the median over that chip's runs of the run's median), and each chip's run-to-run range,
(max - min) / median over its runs. Prints one Markdown row per family: operators, the median, 90th percentile
and largest chip-to-chip difference, the median and 90th percentile of the run-to-run ranges (both chips'
operators together), then the five largest chip-to-chip differences. docs/validation.md's tables.
Exit 2 on bad usage or a file that is not a run JSON; 1 when no operator was timed in every run.
"""
import argparse
import json
import statistics
import sys
from collections import defaultdict


def medians(path):
    try:
        with open(path) as f:
            run = json.load(f)
        ops = [o for d in run["devices"] for o in d["operators"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"chip_spread.py: {path}: not an archbench run JSON ({e})", file=sys.stderr)
        sys.exit(2)
    return {o["id"]: o["timing"]["median_ms"] for o in ops if not o.get("failed") and o.get("timing")}


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chip", nargs="+", action="append", required=True, metavar="RUN.json")
    args = parser.parse_args()
    if len(args.chip) != 2:
        parser.error("give --chip twice: the runs of one chip, then of the other")
    chips = [[medians(p) for p in runs] for runs in args.chip]
    common = set.intersection(*(set(r) for runs in chips for r in runs))
    if not common:
        print("chip_spread.py: no operator was timed in every run", file=sys.stderr)
        return 1
    by_family = defaultdict(lambda: {"chip": [], "run": []})
    chip_rows = []
    for op_id in sorted(common):
        per_chip = [[r[op_id] for r in runs] for runs in chips]
        mids = [statistics.median(v) for v in per_chip]
        diff = abs(mids[0] - mids[1]) / ((mids[0] + mids[1]) / 2)
        family = op_id.split("/", 1)[0]
        by_family[family]["chip"].append(diff)
        by_family[family]["run"].extend((max(v) - min(v)) / statistics.median(v) for v in per_chip)
        chip_rows.append((diff, op_id, mids))
    runs = " and ".join(str(len(r)) for r in chips)
    print(f"{len(common)} operators timed in every run ({runs} runs of the two chips)\n")
    print("| family | operators | chip to chip: median | 90th percentile | largest | run to run: median | "
          "90th percentile |")
    print("|---|---|---|---|---|---|---|")
    for family, s in sorted(by_family.items()):
        c, r = s["chip"], s["run"]
        print(f"| {family} | {len(c)} | {statistics.median(c):.1%} | {percentile(c, 0.9):.1%} | {max(c):.1%} | "
              f"{statistics.median(r):.1%} | {percentile(r, 0.9):.1%} |")
    print("\nlargest chip-to-chip differences:")
    for diff, op_id, mids in sorted(chip_rows, reverse=True)[:5]:
        print(f"  {op_id}: {mids[0] * 1e3:.1f} against {mids[1] * 1e3:.1f} us ({diff:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
