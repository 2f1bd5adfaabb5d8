#!/usr/bin/env bash
# One call on a Hopper machine that refreshes what the committed results rest on:
#   1. the default-arch-list build (benchmarks off), GITREV recorded in every run;
#   2. the GPU tests of the newest operators (the FP8 GEMMs, own and cuBLASLt, and the Hopper
#      convolution: image and correctness), with cuBLASLt's own log (CUBLASLT_LOG_LEVEL=5), and
#      compute-sanitizer memcheck over the Hopper convolution at its check shapes;
#   2b. two quick runs (their wall time) and, where PyTorch is installed (TORCH_PYTHON, default
#      /opt/torch/.venv/bin/python), tools/torch_twins for the results page;
#   3. RUNS full runs (fewer when DEADLINE seconds would pass): the run JSONs, from which
#      tools/campaign/twin_ratios.py takes the same-run ratios of own kernels to their library
#      twins; unless a test of step 2 failed, the device's baseline (baseline update over every
#      run) with an A/A run against it through suites/cli/baseline_gate.sh (the gate of
#      ctest -L baseline: an operator slower in the run is re-run and counts only if slower again);
#   4. the SASS of the FP8 kernels (QGMMA ... E4M3 is Hopper's FP8 wgmma) and of the Hopper
#      convolution (HGMMA, and UTMALDG for its tensor copies).
# Usage: GITREV=<sha> RUNS=8 DEADLINE=520 [CMAKE_ARGS=...] ci/h200_refresh.sh
# CMAKE_ARGS: more configure arguments, e.g. -DARCHBENCH_CUDNN_FRONTEND_INCLUDE_DIR=<dir> on a machine
# where tools/install-deps.sh has not unpacked cudnn-frontend's headers.
# To $OUT (./h200-out), at most five files: summary.txt, run1.txt (the first run's console), the
# baseline and the A/A gate's output, logs.tgz (every run JSON and log).
set -uo pipefail
final="${OUT:-$PWD/h200-out}"; mkdir -p "$final"
work="$(mktemp -d)"
b="${BUILD:-/tmp/ab-default}"
runs="${RUNS:-8}"; deadline="${DEADLINE:-520}"
gpu="$(nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | head -1)"
echo "device: $gpu" | tee "$final/summary.txt"

{ cmake -S . -B "$b" -G Ninja -DARCHBENCH_ARCH_LIST="7.5;8.0;8.6;9.0;10.0;12.0+PTX" \
    -DARCHBENCH_GIT_REVISION="${GITREV:-unknown}" -DARCHBENCH_BUILD_BENCHMARKS=OFF ${CMAKE_ARGS:-} &&
  cmake --build "$b" -j"$(nproc)" -- -k 0; } > "$work/build.log" 2>&1
echo "build exit $? at ${SECONDS} s"; grep -E "error|FAILED" "$work/build.log" | head -20

# The quick tier's wall time, the first run after the build and the next (#35: at most 10 s on the H200).
for i in 1 2; do
  /usr/bin/time -f "%e" -o "$work/quick$i.wall" "$b/archbench" run --quick --json "$work/quick$i.json" \
    > "$work/quick$i.txt" 2>&1
  echo "quick run $i exit $?: $(cat "$work/quick$i.wall") s wall" | tee -a "$final/summary.txt"
done
# PyTorch at the same shapes, for the results page (tools/readme/results_page.py --torch), where it is installed.
torch_python="${TORCH_PYTHON:-/opt/torch/.venv/bin/python}"
if [ -x "$torch_python" ]; then
  timeout 180 "$torch_python" tools/torch_twins/torch_twins.py --json "$work/torch_twins.json" > "$work/twins.txt" 2>&1
  echo "torch twins exit $? at ${SECONDS} s"
fi

CUBLASLT_LOG_LEVEL=5 CUBLASLT_LOG_FILE="$work/cublaslt_%i.log" \
  "$b/suites/archbench_ops_tests" --gtest_filter='*__e4m3__*:*conv_wgmma*' > "$work/new_tests.log" 2>&1
tests=$?
echo "GPU tests of the new operators exit $tests"
grep -E "^\[  (PASSED|FAILED) |tests ran|rel|error" "$work/new_tests.log" | head -30
ARCHBENCH_UNDER_SANITIZER=memcheck ARCHBENCH_TEST_SHAPES=check timeout 150 compute-sanitizer --tool memcheck \
  --error-exitcode 1 "$b/suites/archbench_ops_tests" --gtest_filter='*conv_wgmma__f16*' > "$work/san_memcheck.log" 2>&1
echo "compute-sanitizer memcheck (conv_wgmma f16) exit $?: $(grep -E 'ERROR SUMMARY' "$work/san_memcheck.log" | tail -1)"

from=()
for i in $(seq 1 "$runs"); do
  if [ "$SECONDS" -gt "$deadline" ]; then echo "deadline: $((i - 1)) runs"; break; fi
  /usr/bin/time -f "%e" -o "$work/r$i.wall" "$b/archbench" run --json "$work/r$i.json" > "$work/r$i.txt" 2>&1
  echo "full run $i exit $?: $(cat "$work/r$i.wall") s wall, $(grep -E '^phases' "$work/r$i.txt")" |
    tee -a "$final/summary.txt"
  from+=(--from "$work/r$i.json")
done
cp "$work/r1.txt" "$final/run1.txt"
python3 tools/campaign/twin_ratios.py "$work"/r*.json | tee -a "$final/summary.txt"

if [ "$tests" -eq 0 ]; then
  "$b/archbench" baseline update "${from[@]}" --dir "$work/baselines" 2>&1 | tail -3
  base="$(ls "$work"/baselines/*.json | head -1)"; cp "$base" "$final/"
  # The A/A run through the gate users run (ctest -L baseline): a slowdown counts only when a re-run shows it too.
  ARCHBENCH_GATE_KEEP="$work/aa" bash suites/cli/baseline_gate.sh "$b/archbench" "$work/baselines" \
    > "$final/aa_compare.txt" 2>&1
  echo "A/A gate exit $?"; grep -E "^re-running|^summary" "$final/aa_compare.txt" | tail -3
else
  echo "a GPU test failed: no baseline from these runs"
fi

cuobjdump -sass "$b/archbench" > "$work/sass.txt" 2>&1
echo "QGMMA instructions with E4M3 operands: $(grep -c 'QGMMA.*E4M3' "$work/sass.txt")" | tee -a "$final/summary.txt"
grep -o 'QGMMA[^ ;]*E4M3[^ ;]*' "$work/sass.txt" | sort | uniq -c | head -8 | tee -a "$final/summary.txt"
sm90a="$b/CMakeFiles/archbench_kernels_sm90a.dir/kernels/conv/conv_wgmma.cu.o"
cuobjdump -sass "$sm90a" 2>&1 | grep -o 'HGMMA\.[^ ;]*\|UTMALDG[^ ;]*' | sort | uniq -c | head -12 |
  sed 's/^/conv_wgmma: /' | tee -a "$final/summary.txt"
rm -f "$work/sass.txt"
tar -czf "$final/logs.tgz" -C "$work" .
