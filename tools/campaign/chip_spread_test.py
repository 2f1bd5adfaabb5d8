#!/usr/bin/env python3
"""chip_spread.py on synthetic runs made from the recorded H200 excerpt: chip A's runs at 1.00 and 1.01 times the
recorded medians, chip B's at 1.02 and 1.03, so every operator differs by 2.0% between the chips and ranges by
1.0% within each. Also: bad usage and a corrupt file exit 2, runs without a common operator exit 1.

usage: chip_spread_test.py FIXTURE_DIR   (exit 0 = pass)"""
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

fixtures = Path(sys.argv[1])
script = Path(__file__).resolve().parent / "chip_spread.py"
template = json.loads((fixtures / "run_h200_excerpt.json").read_text())
timed = [o for o in template["devices"][0]["operators"] if o.get("timing") and not o.get("failed")]
families = {o["id"].split("/", 1)[0] for o in timed}
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def run(scale):
    r = copy.deepcopy(template)
    for o in r["devices"][0]["operators"]:
        if o.get("timing"):
            o["timing"]["median_ms"] *= scale
    return r


def spread(*args, files):
    with tempfile.TemporaryDirectory() as d:
        paths = {}
        for name, content in files.items():
            p = Path(d) / name
            p.write_text(content if isinstance(content, str) else json.dumps(content))
            paths[name] = str(p)
        argv = [paths.get(a, a) for a in args]
        return subprocess.run([sys.executable, str(script), *argv], capture_output=True, text=True)


files = {"a1.json": run(1.00), "a2.json": run(1.01), "b1.json": run(1.02), "b2.json": run(1.03)}
out = spread("--chip", "a1.json", "a2.json", "--chip", "b1.json", "b2.json", files=files)
expect(out.returncode == 0, f"two chips: exit {out.returncode}\n{out.stderr}")
expect(f"{len(timed)} operators timed in every run (2 and 2 runs of the two chips)" in out.stdout, out.stdout)
rows = [l for l in out.stdout.splitlines() if l.startswith("| ") and not l.startswith("| family")]
expect({r.split(" | ")[0][2:] for r in rows} == families, f"one row per family:\n{out.stdout}")
for r in rows:
    cells = [c.strip() for c in r.strip("|").split("|")]
    # chip to chip (1.025 - 1.005) / 1.015 = 2.0%; run to run 0.01 / 1.005 and 0.01 / 1.025 = 1.0%
    expect(cells[2:5] == ["2.0%", "2.0%", "2.0%"] and cells[5:7] == ["1.0%", "1.0%"], f"figures: {r}")
expect("largest chip-to-chip differences:" in out.stdout, out.stdout)

out = spread("--chip", "a1.json", files=files)
expect(out.returncode == 2 and "give --chip twice" in out.stderr, f"one chip: {out.returncode}\n{out.stderr}")
out = spread("--chip", "a1.json", "--chip", "bad.json", files={**files, "bad.json": "{not json"})
expect(out.returncode == 2 and "bad.json: not an archbench run JSON" in out.stderr, f"corrupt: {out.stderr}")
empty = copy.deepcopy(template)
empty["devices"][0]["operators"] = []
out = spread("--chip", "a1.json", "--chip", "e.json", files={**files, "e.json": empty})
expect(out.returncode == 1, f"nothing in common: exit {out.returncode}")

for f in failures:
    print("FAIL:", f)
print("chip_spread_test:", "ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
