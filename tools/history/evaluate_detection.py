#!/usr/bin/env python3
"""How well `archbench history check` finds the steps synthetic_history.py injected: a found slowdown matches an
injected step of the same runner and operator when it is placed within TOLERANCE runs (default 0) of it.
Prints recall, the share of step-free series flagged, and misplaced finds. Exit 1 when recall < --min-recall or
the flagged share > --max-false (defaults 0.95 and 0.01, the targets of docs/history.md).
Usage: evaluate_detection.py CHECK.json TRUTH.json [--tolerance N] [--min-recall R] [--max-false F]"""
import argparse
import json
import sys

ap = argparse.ArgumentParser()
ap.add_argument("check")
ap.add_argument("truth")
ap.add_argument("--tolerance", type=int, default=0)
ap.add_argument("--min-recall", type=float, default=0.95)
ap.add_argument("--max-false", type=float, default=0.01)
a = ap.parse_args()
steps = [s for s in json.load(open(a.check))["steps"] if s["kind"] == "slower"]
truth = json.load(open(a.truth))
injected = {(t["runner"], t["operator"]): t["night"] for t in truth["steps"]}
found, misplaced, false_series = set(), 0, set()
for s in steps:
    key = (s["runner"], s["operator"])
    if key in injected:
        if abs((s["run"] - 1) - injected[key]) <= a.tolerance:
            found.add(key)
        else:
            misplaced += 1
    else:
        false_series.add(key)
series = truth["runners"] * truth["operators"]
free = series - len(injected)
recall = len(found) / len(injected) if injected else 1.0
false_share = len(false_series) / free if free else 0.0
print("injected %d steps in %d series: found %d at the right run (recall %.3f), %d misplaced; %d of %d step-free series "
      "flagged (%.4f)" % (len(injected), series, len(found), recall, misplaced, len(false_series), free, false_share))
sys.exit(0 if recall >= a.min_recall and false_share <= a.max_false else 1)
