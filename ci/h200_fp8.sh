#!/usr/bin/env bash
# FP8 on a Hopper machine in one call (issue #35's GEMM figures):
#   1. the default-arch-list build (its 9.0 brings the sm_90a kernels), tests included;
#   2. the FP8 GEMMs' GPU tests: image, correctness against float64, the error oracle against cuBLASLt;
#   3. RUNS timed runs of every matmul operator in e4m3, e5m2 and bf16: own / cuBLASLt from the same run,
#      the median over the runs, per shape (fp8_ratios.txt, by tools/campaign/twin_ratios.py);
#   4. the SASS of the own FP8 kernels: their wgmma instructions (QGMMA ... E4M3, E5M2.E4M3) must be there;
#   5. compute-sanitizer memcheck and racecheck over the own FP8 operators' tests (check shapes).
# Usage: GITREV=<sha> RUNS=5 ci/h200_fp8.sh    Logs, run JSON and a summary go to $OUT (./h200-out).
set -uo pipefail
final="${OUT:-$PWD/h200-out}"; mkdir -p "$final"
work="$(mktemp -d)"
b="${BUILD:-/tmp/ab-default}"
runs="${RUNS:-5}"

{ cmake -S . -B "$b" -G Ninja -DARCHBENCH_ARCH_LIST="7.5;8.0;8.6;9.0;10.0;12.0+PTX" \
    -DARCHBENCH_GIT_REVISION="${GITREV:-unknown}" -DARCHBENCH_BUILD_BENCHMARKS=OFF &&
  cmake --build "$b" -j"$(nproc)" -- -k 0; } > "$work/build.log" 2>&1
echo "build exit $?"; grep -E "error|FAILED" "$work/build.log" | head -20

ctest --test-dir "$b" --output-on-failure -R 'ops\.matmul|oracle\.matmul' > "$work/ctest.log" 2>&1
echo "ctest (matmul GPU tests) exit $?"; grep -E "tests passed|\(Failed\)|Skipped" "$work/ctest.log" | head -20

for i in $(seq 1 "$runs"); do
  "$b/archbench" run --filter 'matmul/*/e4m3/*,matmul/*/e5m2/*,matmul/*/bf16/*' --json "$work/fp8_$i.json" > "$work/fp8_$i.txt" 2>&1
  echo "fp8 run $i exit $?"
done
python3 tools/campaign/twin_ratios.py "$work"/fp8_*.json > "$final/fp8_ratios.txt"
cat "$final/fp8_ratios.txt"
cp "$work/fp8_1.txt" "$final/fp8_run1.txt"; cp "$work/fp8_1.json" "$final/fp8_run1.json"

cuobjdump -sass "$b/libarchbench_kernels.a" 2>/dev/null > "$work/sass.txt" ||
  cuobjdump -sass "$b/archbench" > "$work/sass.txt" 2>&1
{
  # Hopper's FP8 wgmma is QGMMA in SASS (HGMMA is the 16-bit one).
  echo "QGMMA instructions with E4M3 operands: $(grep -c 'QGMMA.*E4M3' "$work/sass.txt")"
  grep -o 'QGMMA[^ ;]*E4M3[^ ;]*' "$work/sass.txt" | sort | uniq -c | head -12
} | tee "$final/fp8_sass.txt"

for tool in memcheck racecheck; do
  ARCHBENCH_UNDER_SANITIZER=$tool ARCHBENCH_TEST_SHAPES=check timeout 300 compute-sanitizer --tool "$tool" \
    --error-exitcode 1 "$b/suites/archbench_ops_tests" --gtest_filter='*gemm_wgmma__e4m3*:*gemm_wgmma__e5m2*' > "$work/san_$tool.log" 2>&1
  echo "compute-sanitizer $tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/san_$tool.log" | tail -1)"
done
tar -czf "$final/fp8_logs.tgz" -C "$work" .
