#!/usr/bin/env bash
# The foundation acceptance run on a GPU machine: four builds of the same tree (8.0, 8.0+PTX,
# 9.0, 9.0a), `archbench run` on each with its exit code, and the full ctest on the 9.0 build.
# Logs go to $OUT (or ./h200-out). Usage: ci/h200_foundation.sh [filter]
set -uo pipefail
final="${OUT:-$PWD/h200-out}"
out="$(mktemp -d)"   # everything lands here; $final gets the reports, the ctest log and one tarball
mkdir -p "$final"
filter="${1:-*}"
lists=("8.0" "8.0+PTX" "9.0" "9.0a")
names=("sm80" "sm80ptx" "sm90" "sm90a")
jobs="$(( $(nproc) / 4 ))"; [ "$jobs" -lt 1 ] && jobs=1

for i in "${!lists[@]}"; do
  ( cmake -S . -B "/tmp/ab-${names[$i]}" -G Ninja -DARCHBENCH_ARCH_LIST="${lists[$i]}" -DARCHBENCH_BUILD_BENCHMARKS=ON -DARCHBENCH_GIT_REVISION="${GITREV:-unknown}" \
      > "$out/configure-${names[$i]}.log" 2>&1 &&
    /usr/bin/time -f "%e s" -o "$out/buildtime-${names[$i]}.txt" cmake --build "/tmp/ab-${names[$i]}" -j"$jobs" \
      > "$out/build-${names[$i]}.log" 2>&1
    echo "build ${names[$i]} exit $?" ) &
done
wait

for i in "${!lists[@]}"; do
  b="/tmp/ab-${names[$i]}"
  echo "=== ARCHBENCH_ARCH_LIST=${lists[$i]}" | tee "$out/run-${names[$i]}.txt"
  "$b/archbench" run --filter "$filter" --json "$out/run-${names[$i]}.json" 2>&1 | tee -a "$out/run-${names[$i]}.txt"
  echo "exit code: ${PIPESTATUS[0]}" | tee -a "$out/run-${names[$i]}.txt"
done

# The JIT switches, judged by the same engine (docs/reference/compat.md, "JIT switches"): no JIT allowed on a PTX-only
# build -> jit-disabled (223); forced JIT on a SASS-only build -> missing (209).
{
  echo "=== 8.0+PTX build, CUDA_DISABLE_PTX_JIT=1 CUDA_CACHE_DISABLE=1"
  CUDA_DISABLE_PTX_JIT=1 CUDA_CACHE_DISABLE=1 /tmp/ab-sm80ptx/archbench run --no-timing --filter 'matmul/gemm_*/*/M4096*'
  echo "exit code: $?"
  echo "=== 9.0 build, CUDA_FORCE_PTX_JIT=1"
  CUDA_FORCE_PTX_JIT=1 /tmp/ab-sm90/archbench run --no-timing --filter 'matmul/gemm_*/*/M4096*'
  echo "exit code: $?"
} > "$out/run-jit-switches.txt" 2>&1

ctest --test-dir /tmp/ab-sm90 --output-on-failure -j4 > "$out/ctest-sm90.log" 2>&1
echo "ctest sm90 exit $?"; tail -5 "$out/ctest-sm90.log"
ctest --test-dir /tmp/ab-sm80 -L gpu -j4 > "$out/ctest-sm80-gpu.log" 2>&1
echo "ctest sm80 -L gpu exit $? (own kernels must fail: no image)"; tail -4 "$out/ctest-sm80-gpu.log"
/tmp/ab-sm90/suites/archbench_bench --benchmark_filter='M4096' --benchmark_out="$out/bench-sm90.json" \
  --benchmark_out_format=json > "$out/bench-sm90.txt" 2>&1
echo "bench exit $?"
cat "$out/run-jit-switches.txt" | grep -E "===|summary|exit code|jit|missing" | head -20
cp "$out"/run-*.txt "$out"/ctest-*.log "$final/"
tar -czf "$final/logs.tgz" -C "$out" .
