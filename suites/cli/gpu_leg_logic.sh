#!/usr/bin/env bash
# The fleet's GPU leg (ci/github/gpu_leg.sh) past its doctor step, without a GPU: the stand-in
# archbench (stand_in.sh) writes fixture results; compare and report are the real archbench.
# - a filtered leg (ARCHBENCH_FILTER) compares the same selection: it passes, and its status.json
#   says what was left out (before, compare saw every other operator "absent" and failed);
# - the same filtered run compared unfiltered would fail: the filter is what makes it pass;
# - a slowdown confirmed by the leg's re-run fails the leg; a GPU suite that lists no test fails it.
# Usage: gpu_leg_logic.sh ARCHBENCH FIXTURES SOURCE_DIR WORK_DIR
set -uo pipefail
archbench="$(realpath "$1")"; fx="$(realpath "$2")"; src="$(realpath "$3")"; work="$4"
source "$(dirname "$0")/checks.sh"
source "$here/stand_in.sh"
rm -rf "$work"; mkdir -p "$work/baselines"
derive() { python3 "$here/derive_results.py" "$@" || bad "derive_results.py $*"; }
derive "$fx/results_h200.json" "$work/two.json" --add-operator norm/layernorm/f16/S
derive "$work/two.json" "$work/matmul_only.json" --keep 'matmul/*'
derive "$fx/results_h200_slower.json" "$work/two_slower.json" --add-operator norm/layernorm/f16/S
derive "$work/two_slower.json" "$work/matmul_slower.json" --keep 'matmul/*'
"$archbench" baseline update --from "$work/two.json" --dir "$work/baselines" > /dev/null 2>&1 || bad "baseline update"

leg() {  # leg NAME: the leg on a fresh stand-in bin dir; rc and the output directory
  make_stand_in "$archbench" "$work/$1/bin"
  ARCHBENCH_BASELINES="$work/baselines" bash "$src/ci/github/gpu_leg.sh" "$work/$1/bin" "$work/$1/out" test-runner \
    > "$work/$1/leg.txt" 2>&1; rc=$?
}

ARCHBENCH_FILTER='matmul/*' FAKE_FIRST="$work/matmul_only.json" FAKE_RERUN=/nonexistent leg filtered
[ "$rc" -eq 0 ] || bad "filtered leg: exit $rc, want 0"
grep -q '"status": "passed"' "$work/filtered/out/status.json" || bad "filtered leg: $(cat "$work/filtered/out/status.json")"
grep -q '1 of 2 operators' "$work/filtered/out/status.json" || bad "filtered leg: status.json does not say what was left out"
grep -q "selection: --filter 'matmul/\*' kept 1 of the baseline's 2" "$work/filtered/out/compare.txt" \
  || bad "filtered leg: the comparison does not say what it left out"
"$archbench" compare --baseline "$work/baselines" "$work/matmul_only.json" > "$work/unfiltered.txt" 2>&1 \
  && bad "the filtered run compared without --filter passed (it must count the norm operator absent)"
grep -q "is a run of 1 of 2 operators" "$work/unfiltered.txt" || bad "unfiltered compare of a filtered run gives no hint"

ARCHBENCH_FILTER='matmul/*' FAKE_FIRST="$work/matmul_slower.json" FAKE_RERUN="$work/matmul_slower.json" leg slower
[ "$rc" -eq 1 ] || bad "confirmed slowdown: exit $rc, want 1"
[ "$(sed -n 2p "$work/slower/bin/run_filters")" = "matmul/gemm_tc/f16/M1_N1_K8" ] || bad "slowdown: the leg did not re-run it"

mkdir -p "$work/empty/bin"
make_stand_in "$archbench" "$work/empty/bin"
printf '#!/usr/bin/env bash\nexit 0\n' > "$work/empty/bin/archbench_ops_tests"
FAKE_FIRST="$work/two.json" ARCHBENCH_BASELINES="$work/baselines" \
  bash "$src/ci/github/gpu_leg.sh" "$work/empty/bin" "$work/empty/out" test-runner > "$work/empty/leg.txt" 2>&1; rc=$?
# The discovery refuses a suite that lists no test: the leg fails as a broken build (4), never passes.
[ "$rc" -eq 4 ] && grep -q "listed no test" "$work/empty/leg.txt" || bad "a GPU suite with no tests: exit $rc, want 4"

for c in filtered slower empty; do [ "$fails" -eq 0 ] || { echo "--- $c"; cat "$work/$c/leg.txt" "$work/$c/out/compare.txt" 2>/dev/null; }; done
[ "$fails" -eq 0 ] && echo PASS
exit $(( fails > 0 ))
