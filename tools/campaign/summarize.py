#!/usr/bin/env python3
"""Issue #5's figures from a measurement campaign's result files (ci/h200_campaign.sh).

Every verdict comes from `archbench compare` itself; this script only pools baselines with
`archbench baseline update`, runs the comparisons and tabulates them:

  noise       per variant (family/name): the spread of each operator's median across the A/A
              runs, (max - min) / median, as median and max over the variant's operators;
  A/A         leave-one-out: each run against a baseline pooled from the others; and, with
              --committed, each run against the committed baseline (another machine's), and what stays
              flagged when the next run of the same GPU serves as the gate's re-run (compare --confirm);
  slowdowns   each run made with ARCHBENCH_TEST_SLOWDOWN against the baseline of all A/A runs:
              per variant and injected level, in how many runs every gated operator was flagged,
              the slowdown the runs really measured (the knob's spin kernel adds its launch gap,
              which matters for operators of a few microseconds), and the smallest level flagged
              in every run.

usage: summarize.py --archbench build/archbench --aa RUN.json... [--slow RUN.json...]
                    [--committed baselines/] [--filter GLOBS] > figures.md
"""
import argparse
import collections
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def variant(op_id):
    family, name = op_id.split("/")[:2]
    return f"{family}/{name}"


def pool(archbench, runs, directory):
    args = [archbench, "baseline", "update", "--dir", str(directory), "--force"]
    for r in runs:
        args += ["--from", str(r)]
    subprocess.run(args, check=True, capture_output=True, text=True)
    return directory


THRESHOLDS = []  # ["--thresholds", FILE] when given


def compare(archbench, baseline_dir, results, flt, rerun=None):
    """Rows of one comparison (first device), from compare --json; exit codes 0 and 1 are verdicts.
    With `rerun`, a slowdown stands only when that run shows it too (compare --confirm)."""
    confirm = ["--confirm", str(rerun)] if rerun else []
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        p = subprocess.run([archbench, "compare", "--baseline", str(baseline_dir), "--filter", flt, "--json", out.name,
                            *THRESHOLDS, *confirm, str(results)], capture_output=True, text=True)
        if p.returncode not in (0, 1):
            sys.exit(f"archbench compare {results} failed ({p.returncode}): {p.stderr.strip()}")
        return json.load(open(out.name))["devices"][0]["operators"]


def flagged(rows):
    return [r for r in rows if r["regression"] and r["change"] != "absent"]


def next_run_of_same_gpu(runs):
    """For each run, the next one (in the given order, wrapping) made on the same GPU (UUID): the
    stand-in for the gate's re-run of its slower operators, a separate process on that GPU."""
    uuid = {r: json.load(open(r))["devices"][0]["device"].get("uuid", "") for r in runs}
    out = {}
    for r in runs:
        same = [o for o in runs if uuid[o] == uuid[r]]
        out[r] = same[(same.index(r) + 1) % len(same)] if len(same) > 1 else None
    return out


def noise_table(runs):
    medians = collections.defaultdict(list)
    for r in runs:
        for op in json.load(open(r))["devices"][0]["operators"]:
            if op.get("timing"):
                medians[op["id"]].append(op["timing"]["median_ms"])
    spreads = collections.defaultdict(list)
    for op_id, m in medians.items():
        if len(m) == len(runs):
            spreads[variant(op_id)].append((max(m) - min(m)) / statistics.median(m))
    lines = [f"| variant | operators | median spread | max spread |", "|---|---|---|---|"]
    for v, s in sorted(spreads.items()):
        lines.append(f"| {v} | {len(s)} | {100 * statistics.median(s):.1f}% | {100 * max(s):.1f}% |")
    return "\n".join(lines)


def injected(results):
    """A slowdown run's level (the largest fraction asked) and each operator's recorded knob delay (ms)."""
    timed = [op for op in json.load(open(results))["devices"][0]["operators"] if op.get("timing")]
    levels = {op["timing"].get("injected_slowdown", 0) for op in timed} - {0}
    delays = {op["id"]: op["timing"].get("injected_delay_ms", 0) for op in timed}
    return (max(levels) if levels else 0), delays


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--archbench", required=True)
    ap.add_argument("--aa", nargs="+", required=True, help="A/A runs: one build, no injected slowdown")
    ap.add_argument("--slow", nargs="*", default=[], help="runs made with ARCHBENCH_TEST_SLOWDOWN")
    ap.add_argument("--committed", help="the committed baseline file or directory")
    ap.add_argument("--filter", default="*")
    ap.add_argument("--thresholds", help="thresholds file passed to every archbench compare")
    a = ap.parse_args()
    if a.thresholds:
        THRESHOLDS.extend(["--thresholds", a.thresholds])
    runs = [Path(r) for r in a.aa]
    print(f"## Noise over {len(runs)} A/A runs\n\n{noise_table(runs)}\n")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        print(f"## A/A, leave-one-out ({len(runs) - 1}-run baselines)\n")
        print("| run | flagged | which |\n|---|---|---|")
        for i, r in enumerate(runs):
            base = pool(a.archbench, [o for o in runs if o != r], tmp / f"loo{i}")
            f = flagged(compare(a.archbench, base, r, a.filter))
            which = ", ".join("{} {:+.1f}%".format(x["id"], 100 * x["effect"]) for x in f)
            print(f"| {r.parent.name}/{r.name} | {len(f)} | {which} |")
        if a.committed:
            print(f"\n## A/A against the committed baseline ({a.committed})\n")
            print("The re-run of a flagged run is the next run of its GPU (compare --confirm); `-` when that GPU "
                  "made one run only.\n")
            print("| run | flagged | which | gated | unstable | flagged after the re-run |\n|---|---|---|---|---|---|")
            rerun_of = next_run_of_same_gpu(runs)
            for r in runs:
                rows = compare(a.archbench, a.committed, r, a.filter)
                unstable = sum(x["change"] == "unstable" for x in rows)
                f = flagged(rows)
                which = ", ".join("{} {:+.1f}%".format(x["id"], 100 * x["effect"]) for x in f)
                after = "0" if not f else ("-" if rerun_of[r] is None else
                                           str(len(flagged(compare(a.archbench, a.committed, r, a.filter, rerun_of[r])))))
                print(f"| {r.parent.name}/{r.name} | {len(f)} | {which} | {len(rows) - unstable} | {unstable} | {after} |")

        if a.slow:
            base = pool(a.archbench, runs, tmp / "all")
            caught = collections.defaultdict(lambda: collections.Counter())  # (variant, level) -> runs
            seen = collections.defaultdict(set)
            # What the knob really added, per (variant, level): a spin kernel after each launch costs
            # its own launch gap too, so a small operator is slowed by more than the level asks.
            measured = collections.defaultdict(list)
            intended = collections.defaultdict(list)  # the knob's own delay / the baseline median, when recorded
            ungated = collections.defaultdict(set)  # variant -> operators not gated (unstable) in some run
            for r in a.slow:
                level, delays = injected(r)
                by_variant = collections.defaultdict(list)
                for x in compare(a.archbench, base, r, a.filter):
                    if x["change"] == "unstable":
                        ungated[variant(x["id"])].add(x["id"])
                    if x["change"] in ("absent", "unstable", "new"):
                        continue
                    by_variant[variant(x["id"])].append(x["change"] == "slower")
                    measured[(variant(x["id"]), level)].append(x["effect"])
                    if delays.get(x["id"]) and x["base_ms"] > 0:
                        intended[(variant(x["id"]), level)].append(delays[x["id"]] / x["base_ms"])
                for v, hits in by_variant.items():
                    seen[v].add(level)
                    caught[(v, level)]["runs"] += 1
                    caught[(v, level)]["all"] += all(hits)
            levels = sorted({lvl for s in seen.values() for lvl in s})
            print(f"\n## Injected slowdowns against the {len(runs)}-run baseline\n")
            print("| variant | " + " | ".join(f"{100 * lvl:.0f}%: runs with every operator flagged" for lvl in levels)
                  + " | smallest level flagged in every run |")
            print("|---|" + "---|" * (len(levels) + 1))
            for v in sorted(seen):
                cells, smallest = [], "-"
                for lvl in levels:
                    c = caught.get((v, lvl))
                    m = measured.get((v, lvl), [])
                    k = intended.get((v, lvl), [])
                    asked = f"knob {100 * min(k):+.0f} to {100 * max(k):+.0f}%, " if k else ""
                    got = f" ({asked}measured {100 * min(m):+.0f} to {100 * max(m):+.0f}%)" if m else ""
                    cells.append(f"{c['all']} of {c['runs']}{got}" if c else "-")
                    if c and c["all"] == c["runs"] and smallest == "-":
                        smallest = f"{100 * lvl:.0f}%"
                print(f"| {v} | " + " | ".join(cells) + f" | {smallest} |")
            for v in sorted(set(ungated) - set(seen)):
                print(f"| {v} | " + " | ".join("not gated" for _ in levels) + " | - |")
            if ungated:
                print("\nNot gated (`unstable`: the baseline's runs spread beyond max_spread), so a slowdown there is"
                      " not detected: " + ", ".join(sorted(i for ids in ungated.values() for i in ids)))


if __name__ == "__main__":
    main()
