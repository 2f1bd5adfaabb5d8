#!/usr/bin/env bash
# The operator-set run on a GPU machine, in steps that fit one remote call each:
#   ci/h200_ops.sh build [arch-list]   configure + build (keeps going past a broken target)
#   ci/h200_ops.sh test  [ctest args]  the GPU suite and everything else ctest has
#   ci/h200_ops.sh time  [filter]      archbench run with timing -> run.json, run.txt
#   ci/h200_ops.sh torch [filter]      PyTorch at the same shapes, set against run.json
#   ci/h200_ops.sh bench [regex]       the Google Benchmark suite
# Logs go to $OUT (or ./h200-out); the build lives in ./build-h200 so later calls reuse it.
set -uo pipefail
final="${OUT:-$PWD/h200-out}"; mkdir -p "$final"
b="$PWD/build-h200"
step="${1:?step}"; shift
case "$step" in
  build)
    { cmake -S . -B "$b" -G Ninja -DARCHBENCH_ARCH_LIST="${1:-9.0}" -DARCHBENCH_BUILD_BENCHMARKS=ON \
        -DARCHBENCH_GIT_REVISION="${GITREV:-unknown}" && cmake --build "$b" -j"$(nproc)" -- -k 0; } > "$final/build.log" 2>&1
    rc=$?; echo "build exit $rc"; grep -E "error|FAILED" "$final/build.log" | head -30 ;;
  test)
    ctest --test-dir "$b" --output-on-failure -j4 -LE "baseline|fuzz|configure" "$@" > "$final/ctest.log" 2>&1
    echo "ctest exit $?"; grep -E "tests passed|\(Failed\)|\(Timeout\)|Not Run" "$final/ctest.log" | head -60 ;;
  time)
    "$b/archbench" run --filter "${1:-*}" --json "$final/run.json" > "$final/run.txt" 2>&1
    echo "run exit $?"; tail -40 "$final/run.txt" ;;
  torch)
    python3 tools/torch_twins/torch_twins.py --filter "${1:-*}" --json "$final/torch.json" --compare "$final/run.json" \
      > "$final/torch.txt" 2>&1
    echo "torch exit $?" ;;
  bench)
    "$b/suites/archbench_bench" --benchmark_filter="${1:-.}" --benchmark_out="$final/bench.json" \
      --benchmark_out_format=json > "$final/bench.txt" 2>&1
    echo "bench exit $?" ;;
  *) echo "unknown step $step"; exit 2 ;;
esac
