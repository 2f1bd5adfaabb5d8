#!/usr/bin/env bash
# The GPU suite's ctest grouping and exit codes (discover_ops_tests.cmake, ops_main.cpp):
# every gtest test lands in exactly one ctest test, ops.* and oracle.* groups carry the family and
# dtype labels, every group has SKIP_RETURN_CODE 77; the binary exits 77 when everything it ran
# skipped (0 on a GPU), 1 when a test failed even if others skipped, 1 for a filter that selects
# nothing. Usage: ops_groups.sh ARCHBENCH_OPS_TESTS DISCOVER_SCRIPT WORK_DIR
set -uo pipefail
exe="$1"; script="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"
fail=0
cmake -DEXE="$exe" -DOUT="$work/ops.cmake" -P "$script" || { echo "FAIL: discovery"; exit 1; }
"$exe" --gtest_list_tests > "$work/list.txt" || { echo "FAIL: --gtest_list_tests"; exit 1; }
python3 - "$work/list.txt" "$work/ops.cmake" <<'PY' || fail=1
import re, sys
listed, suite = [], None
for line in open(sys.argv[1]):
    if re.match(r"^\S.*\.$", line): suite = line.strip()
    elif line.startswith("  "): listed.append(suite + line.split()[0])
text = open(sys.argv[2]).read()
groups = re.findall(r"add_test\(\[==\[(.*?)\]==\] \[==\[.*?\]==\] \[==\[--gtest_filter=(.*?)\]==\]\)", text)
props = dict(re.findall(r"set_tests_properties\(\[==\[(.*?)\]==\] PROPERTIES (.*)\)", text))
bad = []
grouped = [t for _, f in groups for t in f.split(":")]
if sorted(grouped) != sorted(listed): bad.append(f"{len(listed)} tests listed, {len(grouped)} grouped, {len(set(grouped))} distinct")
if len(groups) >= len(listed) / 4: bad.append(f"{len(groups)} groups for {len(listed)} tests: not grouped")
for name, f in groups:
    p = props.get(name, "")
    if "SKIP_RETURN_CODE 77" not in p or "RESOURCE_GROUPS gpus:1" not in p: bad.append(f"{name}: properties {p}")
    m = re.match(r"(ops|oracle)\.([a-z0-9_]+)\.([a-z0-9]+)$", name)
    if m:
        if f"LABELS [==[gpu;{m[2]};{m[3]}]==]" not in p: bad.append(f"{name}: labels in {p}")
        kind = "Registry/OperatorTest." if m[1] == "ops" else "Twins/OracleTest."
        for t in f.split(":"):
            if not t.startswith(kind) or f"/{m[2]}__" not in t or f"__{m[3]}__" not in t: bad.append(f"{name} holds {t}")
    elif not name.startswith("gpu.") or "LABELS [==[gpu]==]" not in p: bad.append(f"{name}: neither ops/oracle nor gpu.*")
    elif name in ("gpu.OperatorTest", "gpu.OracleTest"): bad.append(f"{name}: operator tests outside a family x dtype group")
for b in bad: print("FAIL:", b)
print(f"{len(listed)} gtest tests in {len(groups)} ctest tests")
sys.exit(1 if bad else 0)
PY
# Exit codes. Without a GPU every test here skips: 77; with one they pass: 0.
"$exe" --gtest_filter='Storage/DeviceTensorKernels.*' > "$work/skip.txt" 2>&1; rc=$?
if grep -q "no usable CUDA device" "$work/skip.txt"; then want=77; else want=0; fi
[ "$rc" -eq "$want" ] || { echo "FAIL: all-skipped (or passing) group exited $rc, want $want"; tail -5 "$work/skip.txt"; fail=1; }
# A failing test among skipped ones fails the group (a bad ARCHBENCH_TEST_SHAPES fails even without a GPU).
one="$(sed -n 's/^  \(ImageAndCorrectness\/elementwise__[a-z0-9_]*__f16__[A-Za-z0-9_]*\).*/\1/p' "$work/list.txt" | head -1)"
ARCHBENCH_TEST_SHAPES=bogus "$exe" --gtest_filter="Storage/DeviceTensorKernels.*:Registry/OperatorTest.$one" > "$work/mixed.txt" 2>&1; rc=$?
[ "$rc" -eq 1 ] || { echo "FAIL: a failing test with skipped ones exited $rc, want 1"; tail -5 "$work/mixed.txt"; fail=1; }
"$exe" --gtest_filter='NoSuchSuite.*' > "$work/none.txt" 2>&1; rc=$?
[ "$rc" -eq 1 ] && grep -q "selected no test" "$work/none.txt" || { echo "FAIL: an empty selection exited $rc"; cat "$work/none.txt"; fail=1; }
GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=1 "$exe" --gtest_filter='Storage/DeviceTensorKernels.FillIsInRangeRoundedAndDecidedByTheSeed/f32' \
  > "$work/shard.txt" 2>&1; rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: an empty gtest shard exited $rc"; cat "$work/shard.txt"; fail=1; }
[ "$fail" -eq 0 ] && echo PASS
exit "$fail"
