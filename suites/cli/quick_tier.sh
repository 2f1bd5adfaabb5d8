#!/usr/bin/env bash
# The quick tier on the present GPU: `archbench run --quick` checks every operator's image and its
# correctness at the check shape, times nothing, and agrees with the full check on the same build:
# the same image verdict and the same pass/fail for each operator the full check ran (the
# operators of FULL_FILTER, default '*/f16/*', to keep the test short). Exit 77 without a GPU.
# Usage: quick_tier.sh ARCHBENCH WORK_DIR
set -uo pipefail
archbench="$1"; work="$2"; full_filter="${FULL_FILTER:-*/f16/*}"
mkdir -p "$work"
start=$(date +%s.%N)
"$archbench" run --quick -q --json "$work/quick.json" > "$work/quick.txt" 2>&1; rc=$?
end=$(date +%s.%N)
if [ "$rc" -eq 3 ]; then echo "SKIP: no usable GPU ($(tail -n 1 "$work/quick.txt"))"; exit 77; fi
cat "$work/quick.txt"
echo "quick tier: exit $rc in $(python3 -c "print(f'{$end - $start:.1f}')") s"
"$archbench" run --no-timing -q --filter "$full_filter" --json "$work/full.json" > "$work/full.txt" 2>&1; full_rc=$?
python3 - "$work/quick.json" "$work/full.json" "$rc" "$full_rc" <<'PY'
import json, sys
quick, full = (json.load(open(p)) for p in sys.argv[1:3])
rc, full_rc = int(sys.argv[3]), int(sys.argv[4])
RUNS = ("sass", "ptx-jit", "library")
problems = []
def failed(o):  # OperatorResult::failed(), as the run JSON records it
    return o["failed"]
q = {o["id"]: o for d in quick["devices"] for o in d["operators"]}
for i, o in q.items():
    if o.get("timing"):
        problems.append(i + ": timed in the quick tier")
    if o["image"]["status"] in RUNS and not o.get("error") and not o.get("fault"):
        if not o.get("correctness") or o["correctness"].get("scope") != "quick":
            problems.append(i + ": no quick correctness check")
if (rc == 0) != (not any(failed(o) for o in q.values())):
    problems.append("exit %d does not match the operators' verdicts" % rc)
compared = 0
for d in full["devices"]:
    for o in d["operators"]:
        k = q.get(o["id"])
        if k is None:
            problems.append(o["id"] + ": in the full check, not in the quick tier")
            continue
        compared += 1
        if k["image"]["status"] != o["image"]["status"]:
            problems.append("%s: image %s in the quick tier, %s in the full check" % (o["id"], k["image"]["status"], o["image"]["status"]))
        if failed(k) != failed(o):
            problems.append("%s: %s in the quick tier, %s in the full check" % (o["id"], "fails" if failed(k) else "passes", "fails" if failed(o) else "passes"))
for p in problems:
    print("FAIL: " + p)
print("quick tier: %d operators, %d compared with the full check (exit %d / %d): %s" %
      (len(q), compared, rc, full_rc, "agree" if not problems else "%d problem(s)" % len(problems)))
sys.exit(1 if problems or compared == 0 else 0)
PY
