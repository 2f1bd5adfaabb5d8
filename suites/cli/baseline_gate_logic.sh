#!/usr/bin/env bash
# The baseline gate's logic (suites/cli/baseline_gate.sh) without a GPU: a stand-in for
# `archbench run` writes fixture results, every other subcommand is the real archbench.
# - unchanged run: passes, nothing re-run;
# - a slowdown the re-run does not show (a transient): passes, the operator reported unconfirmed;
# - a slowdown the re-run shows again: fails, "confirmed by the re-run";
# - no usable GPU (run exits 3): skipped (77) with the reason.
# Usage: baseline_gate_logic.sh ARCHBENCH FIXTURES WORK_DIR
set -uo pipefail
archbench="$(realpath "$1")"; fx="$(realpath "$2")"; work="$3"
source "$(dirname "$0")/checks.sh"
source "$here/stand_in.sh"
rm -rf "$work"; mkdir -p "$work/baselines"
"$archbench" baseline update --from "$fx/results_h200.json" --dir "$work/baselines" > /dev/null \
  || { echo "FAIL: baseline update"; exit 1; }
gate() { make_stand_in "$archbench" "$work/bin"; bash "$here/baseline_gate.sh" "$work/bin/archbench" "$work/baselines" > "$work/$1.out" 2>&1; }
reran() { sed -n 2p "$work/bin/run_filters"; }

FAKE_FIRST="$fx/results_h200.json" FAKE_RERUN=/nonexistent gate same; rc=$?
[ "$rc" -eq 0 ] || bad "unchanged: exit $rc, want 0"; [ -z "$(reran)" ] || bad "unchanged: something was re-run"

FAKE_FIRST="$fx/results_h200_slower.json" FAKE_RERUN="$fx/results_h200.json" gate transient; rc=$?
[ "$rc" -eq 0 ] || bad "transient: exit $rc, want 0"
grep -q "unconfirmed" "$work/transient.out" || bad "transient: no 'unconfirmed' row"
want="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["devices"][0]["operators"][0]["id"])' "$fx/results_h200_slower.json")"
[ "$(reran)" = "$want" ] || bad "transient: re-ran '$(reran)', want '$want'"

FAKE_FIRST="$fx/results_h200_slower.json" FAKE_RERUN="$fx/results_h200_slower.json" gate real; rc=$?
[ "$rc" -eq 1 ] || bad "real slowdown: exit $rc, want 1"
grep -q "confirmed by the re-run" "$work/real.out" || bad "real slowdown: not 'confirmed by the re-run'"

FAKE_RUN_RC=3 FAKE_FIRST=/nonexistent FAKE_RERUN=/nonexistent gate nogpu; rc=$?
[ "$rc" -eq 77 ] || bad "no GPU: exit $rc, want 77"; grep -q "SKIP: .*no usable CUDA device" "$work/nogpu.out" || bad "no GPU: no reason"

for f in same transient real nogpu; do [ "$fails" -eq 0 ] || { echo "--- $f"; cat "$work/$f.out"; }; done
[ "$fails" -eq 0 ] && echo PASS
exit $(( fails > 0 ))
