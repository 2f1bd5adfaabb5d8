#!/usr/bin/env bash
# `archbench framework --quick` on python3's PyTorch: every framework op ran with its default
# dispatch, right against float64, its backend named. Exit 77 (skipped, with the reason) where the
# interpreter has no torch (exit 5) or no usable GPU / a CPU-only torch (exit 3): the probe's own
# verdicts for those cases, which this test also checks are said.
# Usage: framework_quick.sh ARCHBENCH WORK_DIR [PYTHON]
set -uo pipefail
archbench="$1"; work="$2"; python="${3:-python3}"
mkdir -p "$work"
"$archbench" framework --python "$python" --quick --json "$work/framework.json" > "$work/out.txt" 2> "$work/err.txt"; rc=$?
case "$rc" in
  5) grep -q "no-torch\|torch-too-old" "$work/err.txt" || { echo "FAIL: exit 5 without the reason"; cat "$work/err.txt"; exit 1; }
     echo "SKIP: $(head -n 1 "$work/err.txt")"; exit 77 ;;
  3) grep -q "no-gpu\|torch-without-cuda" "$work/err.txt" || { echo "FAIL: exit 3 without the reason"; cat "$work/err.txt"; exit 1; }
     echo "SKIP: $(head -n 1 "$work/err.txt")"; exit 77 ;;
esac
cat "$work/out.txt"
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; cat "$work/err.txt"; exit 1; }
python3 - "$work/framework.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
bad = [v["id"] for v in j["verdicts"] if v["check"] != "pass" or v["variants"][0]["ran"] in ("failed", "no image", "other")]
print("%d framework ops, %d not right or without a named backend %s" % (len(j["verdicts"]), len(bad), bad[:5]))
sys.exit(1 if bad or not j["verdicts"] else 0)
PY
