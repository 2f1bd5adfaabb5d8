#!/usr/bin/env bash
# Makes this device's baseline for the default arch list from RUNS runs, then validates it:
# one more run (A/A, must flag nothing) and injected slowdowns of 5% and 20% on the own
# tensor-core GEMMs (must be flagged). Usage: GITREV=<sha> RUNS=3 SLOW_RUNS=2 ci/h200_baseline.sh
set -uo pipefail
final="${OUT:-$PWD/h200-out}"; mkdir -p "$final"
out="$(mktemp -d)"
runs="${RUNS:-3}"; slow_runs="${SLOW_RUNS:-2}"
b=/tmp/ab-default
cmake -S . -B "$b" -G Ninja -DARCHBENCH_ARCH_LIST="7.5;8.0;8.6;9.0;10.0;12.0+PTX" -DARCHBENCH_GIT_REVISION="${GITREV:-unknown}" \
  > "$out/configure.log" 2>&1
cmake --build "$b" -j"$(nproc)" -- -k 0 > "$out/build.log" 2>&1; echo "build exit $? (tests included)"
from=()
for i in $(seq 1 "$runs"); do
  "$b/archbench" run --json "$out/r$i.json" > "$out/r$i.txt" 2>&1; echo "run $i exit $?"
  from+=(--from "$out/r$i.json")
done
cp "$out/r1.txt" "$final/run1.txt"
"$b/archbench" baseline update "${from[@]}" --dir "$out/baselines"
base="$(ls "$out"/baselines/*.json | head -1)"; cp "$base" "$final/"
{
  "$b/archbench" run --json "$out/aa.json" > "$out/aa.txt" 2>&1; echo "=== A/A run exit $?"
  "$b/archbench" compare --baseline "$base" "$out/aa.json"; echo "compare exit $?"
  for pct in 0.05 0.20; do
    for i in $(seq 1 "$slow_runs"); do
      ARCHBENCH_TEST_SLOWDOWN="matmul/gemm_tc/*=$pct" "$b/archbench" run --filter 'matmul/gemm_tc/*' \
        --json "$out/slow$pct-$i.json" > "$out/slow$pct-$i.txt" 2>&1
      echo "=== slowdown $pct run $i"
      "$b/archbench" compare --baseline "$base" "$out/slow$pct-$i.json" --filter 'matmul/gemm_tc/*' | grep -E "gemm_tc|summary"; echo "compare exit $?"
    done
  done
} > "$final/validate.txt" 2>&1
tar -czf "$final/logs.tgz" -C "$out" .
grep -E "exit|summary|===|slower" "$final/validate.txt" | head -60
