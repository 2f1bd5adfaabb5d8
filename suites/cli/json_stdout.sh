#!/usr/bin/env bash
# `--json -` writes the JSON to stdout for every command that has --json, and nothing else goes
# there: stdout parses as one JSON document of the command's schema, the human text is on stderr,
# and no file named '-' appears. Also `list --json FILE`, and the two usage errors of asking for
# two things on stdout at once. run and doctor see no GPU (CUDA_VISIBLE_DEVICES empty, on any
# machine): they exit 3 and still write their JSON.
# Usage: json_stdout.sh ARCHBENCH FIXTURES WORK_DIR
set -uo pipefail
archbench="$1"; fixtures="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
fail=0
# json_only SCHEMA WANT_RC STDERR_NEEDLE -- command...: stdout is one JSON document of SCHEMA.
json_only() {
  local schema="$1" want="$2" needle="$3"; shift 4
  "$@" > out.json 2> err.txt; local rc=$?
  if [ "$rc" -ne "$want" ]; then echo "FAIL: $*: exit $rc, want $want"; cat err.txt; fail=1; fi
  if ! python3 -c 'import json,sys; d=json.load(open("out.json")); sys.exit(d.get("schema") != sys.argv[1])' "$schema" 2>/dev/null; then
    echo "FAIL: $*: stdout is not one $schema JSON document:"; head -c 600 out.json; echo; fail=1
  fi
  if [ -n "$needle" ] && ! grep -qF -- "$needle" err.txt; then
    echo "FAIL: $*: the human text ('$needle') is not on stderr:"; cat err.txt; fail=1
  fi
  if [ -e ./- ]; then echo "FAIL: $*: created a file named '-'"; rm -f ./-; fail=1; fi
}
json_only archbench.list 0 "" -- "$archbench" list --filter 'matmul/*' --json -
json_only archbench.inspect 0 "fatbin container" -- "$archbench" inspect "$archbench" --json -
json_only archbench.inspect 1 "kernels have SASS" -- "$archbench" inspect "$archbench" --device 7.0 --json -
json_only archbench.compare 1 "summary:" -- "$archbench" compare --baseline "$fixtures/baseline_h200.json" \
  "$fixtures/results_h200_slower.json" --json -
json_only archbench.doctor 3 "summary:" -- env CUDA_VISIBLE_DEVICES= "$archbench" doctor --filter 'matmul/gemm_simt/*' --json -
json_only archbench.run 3 "SASS:" -- env CUDA_VISIBLE_DEVICES= "$archbench" run --filter 'matmul/gemm_simt/*' --json -
json_only archbench.framework 0 "summary:" -- "$archbench" framework --answer "$fixtures/framework/framework_h200_full.json" \
  --json -
json_only archbench.scan 1 "summary:" -- "$archbench" scan "$archbench" --device 7.0 --json -
"$archbench" history add "$fixtures"/history_h200/run_0[1-8].json --store "$work/aa.sqlite" > /dev/null 2>&1
json_only archbench.history.check 0 "history check:" -- "$archbench" history check --store "$work/aa.sqlite" --json -

# resources: the ctest spec has no schema field; stdout must still be JSON alone.
"$archbench" resources --count 2 --json - > out.json 2> err.txt
python3 -c 'import json; d=json.load(open("out.json")); assert len(d["local"][0]["gpus"]) == 2' \
  || { echo "FAIL: resources --json - is not the spec alone"; cat out.json err.txt; fail=1; }

# list --json FILE: the file, and the table as before.
"$archbench" list --filter 'norm/layernorm/*' --json ops.json > table.txt || { echo "FAIL: list --json FILE"; fail=1; }
python3 - <<'PY' || fail=1
import json
d = json.load(open("ops.json"))
assert d["schema"] == "archbench.list" and d["schema_version"] == 1, d
op = d["operators"][0]
want = {"id", "family", "name", "dtype", "shape", "impl", "min_cc", "flops", "bytes", "model"}
assert set(op) == want, f"fields {sorted(op)}"
assert op["id"] == f'{op["family"]}/{op["name"]}/{op["dtype"]}/{op["shape"]}', op
assert all(o["family"] == "norm" and o["name"] == "layernorm" for o in d["operators"]), d
PY
grep -q "^id " table.txt || { echo "FAIL: list --json FILE no longer prints the table"; fail=1; }

# Two things on stdout at once: a usage error, before anything runs.
"$archbench" run --json - --gbench-json - > out.txt 2> err.txt
[ $? -eq 2 ] && grep -q "cannot both write to stdout" err.txt || { echo "FAIL: run --json - --gbench-json -"; fail=1; }
"$archbench" compare --baseline "$fixtures/baseline_h200.json" "$fixtures/results_h200.json" --list-slower --json - \
  > out.txt 2> err.txt
[ $? -eq 2 ] && grep -q "cannot both write to stdout" err.txt || { echo "FAIL: compare --list-slower --json -"; fail=1; }

[ "$fail" -eq 0 ] && echo "json_stdout: OK"
exit "$fail"
