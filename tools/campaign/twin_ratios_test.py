#!/usr/bin/env python3
"""twin_ratios.py on synthetic runs made from the recorded H200 excerpt: three runs in which the own
kernels' and the twins' times are set, so each ratio, its range and the TFLOP/s are known. Also: a
pair missing from a run is said, a file that is not a run JSON exits non-zero with its name, and
runs without any pair exit 1.

usage: twin_ratios_test.py FIXTURE_DIR   (exit 0 = pass)"""
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

fixtures = Path(sys.argv[1])
script = Path(__file__).resolve().parent / "twin_ratios.py"
template = json.loads((fixtures / "run_h200_excerpt.json").read_text())
by_id = {o["id"]: o for o in template["devices"][0]["operators"]}
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def op(source_id, new_id, median_ms):
    o = copy.deepcopy(by_id[source_id])
    o["id"] = new_id
    o["timing"]["median_ms"] = median_ms
    return o


def run(own_ms, twin_ms, with_conv=True):
    r = copy.deepcopy(template)
    ops = [op("matmul/gemm_tc/f16/M4096_N4096_K4096", "matmul/gemm_wgmma/f16/M4096_N4096_K4096", own_ms),
           op("matmul/gemm_cublas/f16/M4096_N4096_K4096", "matmul/gemm_cublas/f16/M4096_N4096_K4096", twin_ms)]
    if with_conv:
        ops.append(op("conv/conv_tc/bf16/B2_C1280_H16_W16_K1280_3x3_s1",
                      "conv/conv_tc/bf16/B2_C1280_H16_W16_K1280_3x3_s1", 0.050))
        ops.append(op("conv/conv_cudnn_nhwc/bf16/B2_C1280_H16_W16_K1280_3x3_s1",
                      "conv/conv_cudnn_nhwc/bf16/B2_C1280_H16_W16_K1280_3x3_s1", 0.040))
    r["devices"][0]["operators"] = ops
    return r


def ratios(*runs):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, r in enumerate(runs):
            p = Path(d) / f"r{i}.json"
            p.write_text(r if isinstance(r, str) else json.dumps(r))
            paths.append(str(p))
        return subprocess.run([sys.executable, str(script), *paths], capture_output=True, text=True)


# Own 0.200 ms in every run; the twin 0.180, 0.200 and 0.220: ratios 0.9, 1.0, 1.1 -> median 1.000.
out = ratios(run(0.200, 0.180), run(0.200, 0.200), run(0.200, 0.220))
expect(out.returncode == 0, f"three good runs: exit {out.returncode}\n{out.stderr}")
gemm = [l for l in out.stdout.splitlines() if l.startswith("gemm_wgmma/f16/M4096_N4096_K4096")]
expect(len(gemm) == 1, f"one row for the wgmma GEMM:\n{out.stdout}")
if gemm:
    f = gemm[0].split()
    flops = by_id["matmul/gemm_tc/f16/M4096_N4096_K4096"]["flops"]
    expect(f[1] == "200.0" and f[3] == "200.0", f"own and twin medians in us: {gemm[0]}")
    expect(f[2] == f"{flops / 200e-6 / 1e12:.0f}", f"own TFLOP/s: {gemm[0]}")
    expect(f[4] == "1.000" and f[5] == "0.900-1.100", f"ratio and range: {gemm[0]}")
conv = [l for l in out.stdout.splitlines() if l.startswith("conv_tc/bf16/")]
expect(len(conv) == 1 and conv[0].split()[4] == "0.800", f"conv_tc against cuDNN, 0.040 / 0.050:\n{out.stdout}")
expect(all(len(l) <= 120 for l in out.stdout.splitlines()), "every line within 120 columns")

# The conv pair only in the first of two runs: said, and its row from that run alone.
out = ratios(run(0.2, 0.2), run(0.2, 0.2, with_conv=False))
expect("conv_tc/bf16/B2_C1280_H16_W16_K1280_3x3_s1: timed with its twin in 1 of 2 runs" in out.stdout,
       f"a pair missing from a run:\n{out.stdout}")

# Not a run: exit non-zero, naming the file.
out = ratios(run(0.2, 0.2), "{not json")
expect(out.returncode != 0 and "r1.json: not an archbench run JSON" in out.stderr, f"a corrupt file:\n{out.stderr}")

# No pair at all: exit 1.
lonely = run(0.2, 0.2, with_conv=False)
lonely["devices"][0]["operators"] = lonely["devices"][0]["operators"][:1]
out = ratios(lonely)
expect(out.returncode == 1, f"no pair: exit {out.returncode}")

for f in failures:
    print("FAIL:", f)
print("twin_ratios_test:", "ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
