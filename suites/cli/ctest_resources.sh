#!/usr/bin/env bash
# archbench resources against a real ctest: a spec for 2 GPUs (--count) makes ctest run four
# RESOURCE_GROUPS gpus:1 tests with ids 0 and 1, never two on one GPU at once; without a GPU the
# command exits 3 and writes a spec with no GPUs. Usage: ctest_resources.sh ARCHBENCH WORK_DIR
set -uo pipefail
archbench="$1"; work="$2"
rm -rf "$work"; mkdir -p "$work/tests"
fail=0
"$archbench" resources --count 2 --json "$work/spec.json" || { echo "FAIL: resources --count 2"; fail=1; }
# Each test records its allocation and holds its GPU for a moment; a lock file per id detects overlap.
cat > "$work/tests/gpu_test.sh" <<'SH'
#!/usr/bin/env bash
id="$(echo "$CTEST_RESOURCE_GROUP_0_GPUS" | sed -n 's/^id:\([0-9]*\),slots:1$/\1/p')"
[ -n "$id" ] || { echo "bad allocation: '$CTEST_RESOURCE_GROUP_0_GPUS'"; exit 1; }
mkdir "$1/busy$id" 2>/dev/null || { echo "GPU $id given to two tests at once"; exit 1; }
echo "$id" >> "$1/ids"; sleep 1; rmdir "$1/busy$id"
SH
{
  for i in 1 2 3 4; do
    echo "add_test(t$i bash \"$work/tests/gpu_test.sh\" \"$work\")"
    echo "set_tests_properties(t$i PROPERTIES RESOURCE_GROUPS gpus:1)"
  done
} > "$work/tests/CTestTestfile.cmake"
(cd "$work/tests" && ctest --resource-spec-file "$work/spec.json" -j4 --output-on-failure) || { echo "FAIL: ctest with the spec"; fail=1; }
[ "$(sort -u "$work/ids" | tr '\n' ' ')" = "0 1 " ] || { echo "FAIL: ids used: $(sort -u "$work/ids" | tr '\n' ' ')"; fail=1; }
# This machine's own GPUs (none on a CPU-only machine: exit 3, a spec with no GPUs).
"$archbench" resources --json "$work/here.json"; rc=$?
n="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["local"][0]["gpus"]))' "$work/here.json")"
if [ "$rc" -eq 3 ]; then
  [ "$n" = 0 ] || { echo "FAIL: no device, but the spec lists $n GPUs"; fail=1; }
elif [ "$rc" -ne 0 ] || [ "$n" -lt 1 ]; then
  echo "FAIL: resources exit $rc with $n GPUs"; fail=1
fi
[ "$fail" -eq 0 ] && echo PASS
exit "$fail"
