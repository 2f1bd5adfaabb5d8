#!/usr/bin/env bash
# The CI-gate recipe of README.md, extracted from the README (between the gate-recipe markers) so
# that the two cannot drift, run as written against fixture results: `archbench run` is a
# stand-in (stand_in.sh), everything else the real archbench.
# - unchanged: exit 0, nothing re-run;
# - an image regression with nothing slower: exit 1, nothing re-run, no --confirm (the old recipe
#   read a missing rerun.json and said 5);
# - a transient slowdown: exit 0; a real one: exit 1;
# - a real slowdown whose re-run writes nothing, with a stale passing rerun.json from an earlier
#   run in the directory: never a pass.
# Usage: readme_gate_recipe.sh ARCHBENCH FIXTURES README WORK_DIR
set -uo pipefail
archbench="$(realpath "$1")"; fx="$(realpath "$2")"; readme="$(realpath "$3")"; work="$4"
source "$(dirname "$0")/checks.sh"
source "$here/stand_in.sh"
rm -rf "$work"; mkdir -p "$work"

awk '/<!-- gate-recipe:begin/ {on=1; next} /<!-- gate-recipe:end/ {on=0} on' "$readme" | sed '/^```/d' > "$work/recipe.sh"
grep -q 'archbench compare' "$work/recipe.sh" || { echo "FAIL: no gate recipe between the markers in $readme"; exit 1; }
python3 "$here/derive_results.py" "$fx/results_h200.json" "$work/missing.json" --missing

case_() {  # case_ NAME FIRST RERUN [STALE_RERUN]
  local d="$work/$1"; mkdir -p "$d/build" && cd "$d" || exit 1
  make_stand_in "$archbench" "$d/build"
  "$archbench" baseline update --from "$fx/results_h200.json" --dir baselines > /dev/null 2>&1 || bad "$1: baseline update"
  [ -n "${4:-}" ] && cp "$4" rerun.json
  FAKE_FIRST="$2" FAKE_RERUN="$3" bash "$work/recipe.sh" > out.txt 2>&1; rc=$?
  cd "$work" || exit 1
}
reran() { sed -n 2p "$work/$1/build/run_filters"; }

case_ same "$fx/results_h200.json" /nonexistent
[ "$rc" -eq 0 ] || bad "unchanged: exit $rc, want 0"; [ -z "$(reran same)" ] || bad "unchanged: re-ran $(reran same)"

case_ image "$work/missing.json" /nonexistent
[ "$rc" -eq 1 ] || bad "image regression: exit $rc, want 1"; [ -z "$(reran image)" ] || bad "image regression: re-ran"
grep -q -- "--confirm\|re-run:" "$work/image/out.txt" && bad "image regression: a confirmation was attempted"

case_ transient "$fx/results_h200_slower.json" "$fx/results_h200.json"
[ "$rc" -eq 0 ] || bad "transient slowdown: exit $rc, want 0"; grep -q unconfirmed "$work/transient/out.txt" || bad "transient: not unconfirmed"

case_ real "$fx/results_h200_slower.json" "$fx/results_h200_slower.json"
[ "$rc" -eq 1 ] || bad "real slowdown: exit $rc, want 1"

case_ stale "$fx/results_h200_slower.json" /nonexistent "$fx/results_h200.json"
[ "$rc" -ne 0 ] || bad "a slowdown whose re-run wrote nothing passed on a stale rerun.json"

for c in same image transient real stale; do [ "$fails" -eq 0 ] || { echo "--- $c"; cat "$work/$c/out.txt"; }; done
[ "$fails" -eq 0 ] && echo PASS
exit $(( fails > 0 ))
