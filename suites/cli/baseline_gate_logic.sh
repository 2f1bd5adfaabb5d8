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
rm -rf "$work"; mkdir -p "$work/baselines"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$archbench" baseline update --from "$fx/results_h200.json" --from "$fx/results_h200.json" --dir "$work/baselines" > /dev/null \
  || { echo "FAIL: baseline update"; exit 1; }
cat > "$work/archbench" <<STUB
#!/usr/bin/env bash
# run: the first call writes \$FAKE_FIRST, a --filter call (the gate's re-run) \$FAKE_RERUN.
if [ "\$1" != run ]; then exec "$archbench" "\$@"; fi
json=""; filter=""
while [ \$# -gt 0 ]; do case "\$1" in --json) json="\$2"; shift;; --filter) filter="\$2"; shift;; esac; shift; done
[ -n "\$filter" ] && echo "\$filter" > "$work/rerun_filter"
[ "\${FAKE_RUN_RC:-0}" -eq 3 ] && { echo "archbench run: no usable CUDA device (cudaErrorInsufficientDriver)" >&2; exit 3; }
cp "\$([ -n "\$filter" ] && echo "\$FAKE_RERUN" || echo "\$FAKE_FIRST")" "\$json"
STUB
chmod +x "$work/archbench"
gate() { bash "$(dirname "$0")/baseline_gate.sh" "$work/archbench" "$work/baselines" > "$work/$1.out" 2>&1; }

rm -f "$work/rerun_filter"
FAKE_FIRST="$fx/results_h200.json" FAKE_RERUN=/nonexistent gate same; rc=$?
[ "$rc" -eq 0 ] || bad "unchanged: exit $rc, want 0"; [ ! -e "$work/rerun_filter" ] || bad "unchanged: something was re-run"

FAKE_FIRST="$fx/results_h200_slower.json" FAKE_RERUN="$fx/results_h200.json" gate transient; rc=$?
[ "$rc" -eq 0 ] || bad "transient: exit $rc, want 0"
grep -q "unconfirmed" "$work/transient.out" || bad "transient: no 'unconfirmed' row"
want="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["devices"][0]["operators"][0]["id"])' "$fx/results_h200_slower.json")"
[ "$(cat "$work/rerun_filter" 2>/dev/null)" = "$want" ] || bad "transient: re-ran '$(cat "$work/rerun_filter" 2>/dev/null)', want '$want'"

FAKE_FIRST="$fx/results_h200_slower.json" FAKE_RERUN="$fx/results_h200_slower.json" gate real; rc=$?
[ "$rc" -eq 1 ] || bad "real slowdown: exit $rc, want 1"
grep -q "confirmed by the re-run" "$work/real.out" || bad "real slowdown: not 'confirmed by the re-run'"

FAKE_RUN_RC=3 FAKE_FIRST=/nonexistent FAKE_RERUN=/nonexistent gate nogpu; rc=$?
[ "$rc" -eq 77 ] || bad "no GPU: exit $rc, want 77"; grep -q "SKIP: .*no usable CUDA device" "$work/nogpu.out" || bad "no GPU: no reason"

for f in same transient real nogpu; do [ "$fail" -eq 0 ] || { echo "--- $f"; cat "$work/$f.out"; }; done
[ "$fail" -eq 0 ] && echo PASS
exit "$fail"
