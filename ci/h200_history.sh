#!/usr/bin/env bash
# The history's acceptance on one GPU, and this device's committed baseline regenerated:
#   build A (GITREV) and build B (GITREV-slow, the same tree under an injected slowdown of one family:
#   ARCHBENCH_TEST_SLOWDOWN="FAMILY/*=PCT");
#   RUNS_A full runs of A into one store; the device-model baseline from the first BASE_RUNS of them, and a
#   per-runner baseline from the history (`baseline update --from-history`); the next run of A compared with
#   both (A/A: must read 0 new, 0 faster, nothing flagged); then RUNS_B full runs of B into the store;
#   `history check` must name FAMILY and the revision change, and flag nothing else.
# Usage: [CMAKE_ARGS=...] GITREV=<sha> RUNS_A=7 RUNS_B=6 SLOW_FAMILY=attention SLOW_PCT=0.05 ci/h200_history.sh
# (The rank test needs 13 runs to accept a step at alpha 0.01: docs/history.md.) Results go to $OUT.
set -uo pipefail
final="${OUT:-$PWD/h200-out}"; mkdir -p "$final"
out="$(mktemp -d)"
runs_a="${RUNS_A:-7}"; runs_b="${RUNS_B:-6}"; base_runs="${BASE_RUNS:-6}"
family="${SLOW_FAMILY:-attention}"; pct="${SLOW_PCT:-0.05}"; rev="${GITREV:-unknown}"
b=/tmp/ab-history
build() {  # build REVISION DEST: the default arch list, the CLI only (CMAKE_ARGS: e.g. where SQLite is)
  # shellcheck disable=SC2086
  cmake -S . -B "$b" -G Ninja -DARCHBENCH_GIT_REVISION="$1" -DARCHBENCH_BUILD_TESTS=OFF \
    -DARCHBENCH_BUILD_BENCHMARKS=OFF ${CMAKE_ARGS:-} >> "$out/configure.log" 2>&1 &&
    cmake --build "$b" -j"$(nproc)" --target archbench >> "$out/build.log" 2>&1 && cp "$b/archbench" "$2"
}
build "$rev" "$out/archbench-A" || { echo "build A failed"; tail -30 "$out/build.log"; exit 1; }
build "$rev-slow$family" "$out/archbench-B" || { echo "build B failed"; tail -30 "$out/build.log"; exit 1; }
A="$out/archbench-A"; B="$out/archbench-B"; store="$out/history.sqlite"
from=(); files=()
for i in $(seq 1 "$runs_a"); do
  "$A" run --quiet --json "$out/a$i.json" > "$out/a$i.txt" 2>&1; echo "A run $i exit $?"
  [ "$i" -le "$base_runs" ] && { from+=(--from "$out/a$i.json"); files+=("$out/a$i.json"); }
  if [ "$i" -eq "$base_runs" ]; then
    "$A" history add "${files[@]}" --store "$store" | tail -1
    "$A" baseline update "${from[@]}" --dir "$out/baselines" | tail -1
    "$A" baseline update --from-history "$store" --dir "$out/runner-baselines" | tail -1
  fi
  if [ "$i" -gt "$base_runs" ]; then
    {
      echo "=== A/A run $i against the device-model baseline"
      "$A" compare --baseline "$(ls "$out"/baselines/*.json | head -1)" "$out/a$i.json"; echo "compare exit $?"
      echo "=== A/A run $i against the runner's baseline from the history"
      "$A" compare --baseline "$(ls "$out"/runner-baselines/*.json | head -1)" "$out/a$i.json"; echo "compare exit $?"
    } >> "$final/aa.txt" 2>&1
    "$A" history add "$out/a$i.json" --store "$store" | tail -1
  fi
done
"$A" history check --store "$store" > "$final/check-aa.txt" 2>&1; echo "history check after A/A nights: exit $?"
for i in $(seq 1 "$runs_b"); do
  ARCHBENCH_TEST_SLOWDOWN="$family/*=$pct" "$B" run --quiet --json "$out/b$i.json" > "$out/b$i.txt" 2>&1
  echo "B run $i exit $?"
  "$B" history add "$out/b$i.json" --store "$store" | tail -1
done
"$B" history check --store "$store" --json "$final/check.json" --markdown "$final/check.md" --html "$final/trend.html" \
  > "$final/check.txt" 2>&1; echo "history check after B nights: exit $?"
"$B" history list --store "$store" > "$final/list.txt" 2>&1
cp "$(ls "$out"/baselines/*.json | head -1)" "$final/"
tar -czf "$final/history-runs.tgz" -C "$out" --exclude 'archbench-*' .
grep -E "summary|exit" "$final/aa.txt"
head -5 "$final/check.txt"; tail -2 "$final/check.txt"
