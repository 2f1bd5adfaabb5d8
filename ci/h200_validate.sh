#!/usr/bin/env bash
# Validation on a GPU machine for the inspector (#3) and the baselines (#5):
#   1. build the default arch list; archbench run (cross-checks every own kernel's runtime verdict
#      against the prediction from its own executable); store the result as this device's baseline;
#   2. A/A: more runs of the same build compared with that baseline (must flag nothing);
#   3. injected slowdowns (ARCHBENCH_TEST_SLOWDOWN) of 5% and 20% (must be flagged);
#   4. inspect vs cuobjdump on large libraries, with timings, and predictions for 11.0 and 8.9.
# Usage: GITREV=<sha> AA_RUNS=3 SLOW_RUNS=3 ci/h200_validate.sh     (logs and results to $OUT)
set -uo pipefail
final="${OUT:-$PWD/h200-out}"; mkdir -p "$final"
out="$(mktemp -d)"
aa_runs="${AA_RUNS:-3}"; slow_runs="${SLOW_RUNS:-3}"
b=/tmp/ab-default
cmake -S . -B "$b" -G Ninja -DARCHBENCH_ARCH_LIST="7.5;8.0;8.6;9.0;10.0;12.0+PTX" -DARCHBENCH_GIT_REVISION="${GITREV:-unknown}" \
  > "$out/configure.log" 2>&1 && /usr/bin/time -f "build %e s" cmake --build "$b" -j"$(nproc)" > "$out/build.log" 2>&1
echo "build exit $?"; tail -1 "$out/build.log"

"$b/archbench" run --json "$out/run0.json" > "$final/run0.txt" 2>&1; echo "run0 exit $?"
"$b/archbench" baseline update --from "$out/run0.json" --dir "$out/baselines" | tee -a "$final/validate.txt"
base="$(ls "$out"/baselines/*.json | head -1)"
cp "$base" "$final/"

{
  for i in $(seq 1 "$aa_runs"); do
    "$b/archbench" run --json "$out/aa$i.json" > "$out/aa$i.txt" 2>&1
    echo "=== A/A run $i: run exit $?"
    "$b/archbench" compare --baseline "$base" "$out/aa$i.json" --json "$out/aa$i-compare.json" > "$out/aa$i-compare.txt"
    echo "compare exit $?"; grep -E "^summary" "$out/aa$i-compare.txt"; grep -E " (slower|faster|image-regressed|correctness-regressed|absent) " "$out/aa$i-compare.txt"
  done
  for pct in 0.05 0.20; do
    for i in $(seq 1 "$slow_runs"); do
      ARCHBENCH_TEST_SLOWDOWN="matmul/gemm_tc/*=$pct" "$b/archbench" run --filter 'matmul/gemm_tc/*' --json "$out/slow$pct-$i.json" > "$out/slow$pct-$i.txt" 2>&1
      "$b/archbench" compare --baseline "$base" "$out/slow$pct-$i.json" > "$out/slow$pct-$i-compare.txt"
      echo "=== slowdown $pct run $i: compare exit $?"; grep -E "gemm_tc" "$out/slow$pct-$i-compare.txt"
    done
  done
} >> "$final/validate.txt" 2>&1

cp "$out"/aa1-compare.txt "$final/" 2>/dev/null
tar -czf "$final/logs.tgz" -C "$out" .
grep -E "exit|summary|===" "$final/validate.txt" | head -40

{
  cuobjdump="$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)"
  torch_lib="$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so"))' 2>/dev/null)"
  libs=("$b/archbench" /usr/local/cuda/lib64/libcublasLt.so.13 "$torch_lib")
  for l in /usr/lib/x86_64-linux-gnu/libcudnn_engines_precompiled.so.9; do
    [ -f "$l" ] && libs+=("$l")
  done
  for lib in "${libs[@]}"; do
    [ -f "$lib" ] || { echo "=== $lib: not found"; continue; }
    echo "=== $lib ($(stat -Lc %s "$lib") bytes)"
    /usr/bin/time -f "archbench inspect: %e s" "$b/archbench" inspect "$lib" --json "$out/inspect.json" > "$out/inspect.txt" 2> "$out/time.txt"
    cat "$out/inspect.txt" "$out/time.txt"
    /usr/bin/time -f "cuobjdump --list-elf: %e s" "$cuobjdump" --list-elf "$lib" > "$out/elf.txt" 2> "$out/time.txt"; tail -1 "$out/time.txt"
    /usr/bin/time -f "cuobjdump --list-ptx: %e s" "$cuobjdump" --list-ptx "$lib" > "$out/ptx.txt" 2> "$out/time.txt"; tail -1 "$out/time.txt"
    python3 ci/compare_cuobjdump.py "$out/inspect.json" "$out/elf.txt" "$out/ptx.txt"
  done
  if [ -f "$torch_lib" ]; then
    /usr/bin/time -f "inspect --device 11.0: %e s" "$b/archbench" inspect "$torch_lib" --device 11.0 --driver 580; echo "exit $?"
    "$b/archbench" inspect "$torch_lib" --device 8.9 --driver 580; echo "exit $?"
    "$b/archbench" inspect "$torch_lib" --device 9.0 --driver 580; echo "exit $?"
  fi
} > "$final/inspect.txt" 2>&1
grep -E "===|equal|DIFFERENT|s$|kernels have" "$final/inspect.txt" | head -40
