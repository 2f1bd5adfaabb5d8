#!/usr/bin/env bash
# The baseline gate as a test: run every operator on this machine's first GPU and compare with
# the committed baseline of its device key. Exit 77 (ctest: skipped) with the reason when there
# is no usable GPU or no baseline for this device. Usage: baseline_gate.sh ARCHBENCH BASELINE_DIR
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
exit "$rc"
