#!/usr/bin/env bash
# The operator-set run on a GPU machine: build for the device's own arch, run every GPU test,
# run the suite with timing (JSON), time PyTorch at the same shapes, and run the benchmarks.
# Usage: ci/h200_ops.sh [arch-list] [filter]   (logs and one tarball go to $OUT or ./h200-out)
set -uo pipefail
final="${OUT:-$PWD/h200-out}"; mkdir -p "$final"
out="$(mktemp -d)"
arch="${1:-9.0}"; filter="${2:-*}"
b=/tmp/ab-ops
{ cmake -S . -B "$b" -G Ninja -DARCHBENCH_ARCH_LIST="$arch" -DARCHBENCH_BUILD_BENCHMARKS=ON \
    -DARCHBENCH_GIT_REVISION="${GITREV:-unknown}" && cmake --build "$b" -j"$(nproc)"; } > "$out/build.log" 2>&1
echo "build exit $?"; grep -E "error|warning" "$out/build.log" | head -20
ctest --test-dir "$b" --output-on-failure -j8 -LE "baseline" > "$out/ctest.log" 2>&1
echo "ctest exit $?"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest.log" | head -40
"$b/archbench" run --filter "$filter" --json "$out/run.json" > "$out/run.txt" 2>&1
echo "run exit $?"
python3 tools/torch_twins/torch_twins.py --filter "$filter" --json "$out/torch.json" --compare "$out/run.json" \
  > "$out/torch.txt" 2>&1
echo "torch exit $?"
"$b/suites/archbench_bench" --benchmark_filter="${BENCH_FILTER:-norm|elementwise}" \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json > "$out/bench.txt" 2>&1
echo "bench exit $?"
cp "$out"/*.txt "$out/ctest.log" "$final/" 2>/dev/null
tar -czf "$final/logs.tgz" -C "$out" .
