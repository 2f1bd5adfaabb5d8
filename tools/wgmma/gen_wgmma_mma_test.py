#!/usr/bin/env python3
"""gen_wgmma_mma.py's output compiles for sm_90a at every width, through mma_ss / mma_rs as the
kernels call it: ptxas checks each instruction's operands. A build without 9.0 in its arch list
never generates the header, so this is where such a build (the CI's) sees the generator work.

usage: gen_wgmma_mma_test.py NVCC SOURCE_DIR   (exit 0 = pass)"""
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import gen_wgmma_mma as gen  # noqa: E402  (beside this script)

nvcc, source_dir = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    subprocess.run([sys.executable, gen.__file__, str(tmp / "kernels" / "common" / "wgmma_mma.cuh")], check=True)
    lines = ['#include "kernels/common/wgmma_instructions.cuh"',
             "namespace w = archbench::kernels::wgmma;",
             "template <typename TA, typename TB, int N> __global__ void ss(float* out, uint64_t a, uint64_t b) {",
             "  float d[N / 2] = {};",
             "  w::mma_ss<TA, TB, N>(d, a, b, 1);",
             "  for (int i = 0; i < N / 2; ++i) out[i] = d[i];",
             "}",
             "template <typename TA, typename TB, int N> __global__ void rs(float* out, uint64_t b) {",
             "  float d[N / 2] = {};",
             "  const uint32_t a[4] = {};",
             "  w::mma_rs<TA, TB, N>(d, a, b, 1);",
             "  for (int i = 0; i < N / 2; ++i) out[i] = d[i];",
             "}"]
    for (a, _), (b, _) in gen.TYPES + gen.FP8_TYPES:
        lines += [f"template __global__ void ss<{a}, {b}, {n}>(float*, uint64_t, uint64_t);" for n in gen.SS_WIDTHS]
        lines += [f"template __global__ void rs<{a}, {b}, {n}>(float*, uint64_t);" for n in gen.RS_WIDTHS]
    (tmp / "every_width.cu").write_text("\n".join(lines) + "\n")
    r = subprocess.run([nvcc, "-std=c++17", "-gencode=arch=compute_90a,code=sm_90a", f"-I{source_dir}", f"-I{tmp}",
                        "-c", str(tmp / "every_width.cu"), "-o", str(tmp / "every_width.o")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr, file=sys.stderr)
        sys.exit(1)
print(f"{len(gen.SS_WIDTHS)} SS and {len(gen.RS_WIDTHS)} RS widths compile for sm_90a in {len(gen.TYPES)} 16-bit "
      f"and {len(gen.FP8_TYPES)} FP8 type pairs")
