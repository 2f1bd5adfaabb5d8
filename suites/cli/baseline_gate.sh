#!/usr/bin/env bash
# The baseline gate as a test: run every operator on this machine's first GPU and compare with
# the committed baseline of its device key. Exit 77 (ctest: skipped) with the reason when there
# is no usable GPU or no baseline for this device. Usage: baseline_gate.sh ARCHBENCH BASELINE_DIR
# A slowdown must show twice: the operators the first comparison finds slower are run again and
# count only when slower in that re-run too (compare --confirm; docs/baselines-and-ci-gate.md,
# "A slowdown must show twice"; the recipe itself is in README.md).
# ARCHBENCH_GATE_KEEP=DIR keeps the run's results.json and log there (a campaign counts the gate
# run as one of its A/A runs).
set -uo pipefail
archbench="$1"; baselines="$2"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
"$archbench" run --device 0 --json "$out/results.json" > "$out/run.log" 2>&1
rc=$?
if [ -n "${ARCHBENCH_GATE_KEEP:-}" ]; then mkdir -p "$ARCHBENCH_GATE_KEEP" && cp "$out"/results.json "$out"/run.log "$ARCHBENCH_GATE_KEEP"/ 2>/dev/null; fi
if [ "$rc" -eq 3 ]; then echo "SKIP: $(tail -1 "$out/run.log")"; exit 77; fi
cat "$out/run.log"
"$archbench" compare --baseline "$baselines" "$out/results.json" 2> "$out/compare.err"
rc=$?
if [ "$rc" -eq 5 ] && grep -q "no baseline for" "$out/compare.err"; then echo "SKIP: $(cat "$out/compare.err")"; exit 77; fi
cat "$out/compare.err"
if [ "$rc" -eq 1 ]; then
  slower="$("$archbench" compare --baseline "$baselines" "$out/results.json" --list-slower)"
  if [ -n "$slower" ]; then
    echo "re-running the slower operator(s) to confirm: $slower"
    "$archbench" run --device 0 --filter "$slower" --json "$out/rerun.json" > "$out/rerun.log" 2>&1
    if [ -s "$out/rerun.json" ]; then
      "$archbench" compare --baseline "$baselines" "$out/results.json" --confirm "$out/rerun.json"
      rc=$?
    else
      cat "$out/rerun.log"; echo "the re-run wrote no results; the first comparison stands"
    fi
  fi
fi
exit "$rc"
