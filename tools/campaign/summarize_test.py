#!/usr/bin/env python3
"""summarize.py end to end on synthetic runs made from the H200 results fixture, with the real
archbench doing every pooling and comparison: 4 A/A runs whose medians move by under 1% and 2
runs slowed by 20%, one of which records the knob's delay. The tables must say what the runs say:
no A/A run flagged, both slowed runs caught, the knob's intended and the measured slowdown shown.

usage: summarize_test.py ARCHBENCH FIXTURE_DIR   (exit 0 = pass)"""
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

archbench, fixtures = sys.argv[1], Path(sys.argv[2])
here = Path(__file__).resolve().parent
template = json.loads((fixtures / "results_h200.json").read_text())


def run_file(directory, name, scale, slowdown=0.0, delay_ms=0.0):
    run = copy.deepcopy(template)
    for op in run["devices"][0]["operators"]:
        t = op["timing"]
        for key in ("median_ms", "q1_ms", "q3_ms", "min_ms", "max_ms"):
            t[key] *= scale
        t["samples_ms"] = [x * scale for x in t["samples_ms"]]
        t["median_cycles"] *= scale
        t["injected_slowdown"] = slowdown
        if delay_ms:
            t["injected_delay_ms"] = delay_ms
    path = Path(directory) / name
    path.write_text(json.dumps(run))
    return str(path)


failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    aa = [run_file(tmp, f"aa-{i}.json", s) for i, s in enumerate((1.000, 1.004, 0.997, 1.007))]
    slow = [run_file(tmp, "slow-1.json", 1.20, 0.20, 0.2), run_file(tmp, "slow-2.json", 1.21, 0.20)]
    p = subprocess.run([sys.executable, str(here / "summarize.py"), "--archbench", archbench, "--aa", *aa,
                        "--slow", *slow], capture_output=True, text=True)
    out = p.stdout
    print(out)
    expect(p.returncode == 0, f"summarize.py exit {p.returncode}: {p.stderr.strip()}")
    expect("## Noise over 4 A/A runs" in out, "no noise table")
    expect("| matmul/gemm_tc | 1 | 1.0% | 1.0% |" in out, "noise row: the medians spread (1.007 - 0.997) / 1.002")
    loo = [line for line in out.splitlines() if line.startswith("| ") and "aa-" in line and ".json" in line]
    expect(len(loo) == 4 and all(line.split("|")[2].strip() == "0" for line in loo),
           f"leave-one-out: every A/A run must flag 0 operators: {loo}")
    row = next((line for line in out.splitlines() if line.startswith("| matmul/gemm_tc |") and "of" in line), "")
    expect("2 of 2" in row, f"slowdown row must catch both runs: {row!r}")
    expect("knob +20 to +20%" in row, f"slowdown row must show the knob's intended delay: {row!r}")
    expect("measured +20 to +21%" in row, f"slowdown row must show the measured slowdown: {row!r}")
    expect(row.rstrip().endswith("| 20% |"), f"smallest level flagged in every run: {row!r}")

    # Against a committed baseline: a run with one operator disturbed by 10% is flagged, and the
    # next run of the same GPU (the re-run) does not confirm it; a run slowed for real would be.
    committed = Path(tmp) / "committed"
    subprocess.run([archbench, "baseline", "update", "--dir", str(committed), "--from", aa[0], "--from", aa[1]],
                   check=True, capture_output=True)
    disturbed = run_file(tmp, "aa-disturbed.json", 1.10)
    p = subprocess.run([sys.executable, str(here / "summarize.py"), "--archbench", archbench, "--aa", aa[2], disturbed,
                        aa[3], "--committed", str(committed)], capture_output=True, text=True)
    print(p.stdout)
    expect(p.returncode == 0, f"summarize.py --committed exit {p.returncode}: {p.stderr.strip()}")
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in p.stdout.split("## A/A against the committed")[-1].splitlines() if ".json |" in line}
    expect(rows.get(f"{Path(tmp).name}/aa-disturbed.json", [""])[0] == "1", f"the disturbed run must be flagged: {rows}")
    expect(rows.get(f"{Path(tmp).name}/aa-disturbed.json", [""])[-1] == "0", f"its re-run must not confirm it: {rows}")
    expect(rows.get(f"{Path(tmp).name}/aa-2.json", [""])[0] == "0", f"an undisturbed run flags nothing: {rows}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
