#!/usr/bin/env bash
# `archbench merge` and `archbench report` from the command line (no GPU): the three fleet
# outputs from two devices' results (suites/fixtures/fleet: a real H200 run, reduced, and a
# second device synthesized from it), the change against --baselines, and the exit codes for bad
# inputs (5), a bad command line (2) and an unwritable output (4).
# Usage: fleet_cli.sh ARCHBENCH FIXTURES WORK_DIR
set -uo pipefail
archbench="$1"; fixtures="$2/fleet"; work="$3"
rm -rf "$work"; mkdir -p "$work"
fail=0
expect() {  # expect RC DESCRIPTION -- command...
  local want="$1" what="$2"; shift 3
  "$@" > "$work/out" 2> "$work/err"; local rc=$?
  if [ "$rc" -ne "$want" ]; then echo "FAIL: $what: exit $rc, want $want"; cat "$work/out" "$work/err"; fail=1; fi
}
h200="$fixtures/results_h200.json"; h100="$fixtures/results_h100_sm80build.json"

expect 0 "merge of two devices" -- "$archbench" merge "$h200" "$h100" --baselines "$fixtures/baselines" -o "$work/fleet"
for f in fleet.json fleet.md fleet.html; do [ -s "$work/fleet/$f" ] || { echo "FAIL: no $f"; fail=1; }; done
grep -q '"schema": "archbench.fleet"' "$work/fleet/fleet.json" || { echo "FAIL: fleet.json schema"; fail=1; }
grep -q 'nvidia-h200-cc90-140g: 18 operators, 0 failed, 3 regression(s)' "$work/out" || { echo "FAIL: merge summary"; cat "$work/out"; fail=1; }
grep -q 'nvidia-h100-80gb-hbm3-cc90-80g: 18 operators, 15 failed, no baseline' "$work/out" || { echo "FAIL: merge summary (h100)"; cat "$work/out"; fail=1; }
[ "$(stat -c %s "$work/fleet/fleet.md")" -lt 1048576 ] || { echo "FAIL: fleet.md over 1 MiB"; fail=1; }
grep -q '❌ missing' "$work/fleet/fleet.md" || { echo "FAIL: fleet.md lacks the missing images"; fail=1; }

expect 0 "merge without baselines" -- "$archbench" merge "$h200" -o "$work/one"
expect 0 "report with a baseline directory" -- "$archbench" report "$h200" --baseline "$fixtures/baselines" --html "$work/r.html"
grep -q 'class="roofline"' "$work/r.html" || { echo "FAIL: report has no roofline"; fail=1; }

# Bad inputs: exit 5 with the file named.
printf '{"schema": "archbench.run", "schema_version": 1, "devi' > "$work/truncated.json"
echo '{"schema": "archbench.run", "schema_version": 7, "devices": []}' > "$work/future.json"
expect 5 "truncated results" -- "$archbench" merge "$h200" "$work/truncated.json" -o "$work/bad"
grep -q 'truncated.json is not valid JSON' "$work/err" || { echo "FAIL: message names the file"; cat "$work/err"; fail=1; }
[ ! -e "$work/bad/fleet.json" ] || { echo "FAIL: merge wrote outputs from bad input"; fail=1; }
expect 5 "future schema version" -- "$archbench" merge "$work/future.json" -o "$work/bad"
expect 5 "missing results file" -- "$archbench" merge "$work/nonexistent.json" -o "$work/bad"
mkdir -p "$work/badbase" && cp "$work/truncated.json" "$work/badbase/nvidia-h200-cc90-140g.json"
expect 5 "corrupt baseline" -- "$archbench" merge "$h200" --baselines "$work/badbase" -o "$work/bad"
expect 5 "--baselines not a directory" -- "$archbench" merge "$h200" --baselines "$h200" -o "$work/bad"
expect 5 "report of truncated results" -- "$archbench" report "$work/truncated.json" --html "$work/bad.html"
expect 5 "report with a corrupt baseline" -- "$archbench" report "$h200" --baseline "$work/truncated.json" --html "$work/bad.html"
# Bad command lines: exit 2.
expect 2 "merge without -o" -- "$archbench" merge "$h200"
expect 2 "report without --html" -- "$archbench" report "$h200"
# An output that cannot be written: exit 4.
touch "$work/afile"
expect 4 "merge into a file" -- "$archbench" merge "$h200" -o "$work/afile/sub"
expect 4 "report into a missing directory" -- "$archbench" report "$h200" --html "$work/no/such/dir/r.html"
[ "$fail" -eq 0 ] && echo PASS
exit "$fail"
