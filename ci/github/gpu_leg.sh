#!/usr/bin/env bash
# CI matrix leg on one GPU runner: doctor, the GPU test suite under ctest (JUnit XML, one test per
# GPU via RESOURCE_GROUPS), archbench run, compare against baselines/ and the HTML report. Every
# output goes to OUT (uploaded as the leg's artifact even when a step fails).
# Exit: 0 all passed; 1 a test, operator or comparison failed; 3 no usable GPU or driver on this
# runner (the doctor's diagnosis is in OUT/doctor.txt and OUT/status.json); 4 archbench failed.
# Usage: gpu_leg.sh BIN_DIR OUT LABEL   (ARCHBENCH_FILTER: operator globs for the run and its comparison,
# default every operator; ARCHBENCH_BASELINES: the baselines directory, default the repository's)
set -uo pipefail
bin="$(cd "$1" && pwd)"; out="$2"; label="$3"
root="$(cd "$(dirname "$0")/../.." && pwd)"
baselines="${ARCHBENCH_BASELINES:-$root/baselines}"
mkdir -p "$out"; out="$(cd "$out" && pwd)"
status() {  # status STATE EXIT MESSAGE
  printf '{"label": "%s", "status": "%s", "exit": %d, "message": "%s"}\n' "$label" "$1" "$2" "$3" > "$out/status.json"
}
"$bin/archbench" --version > "$out/manifest.txt" 2>&1

# 1. doctor: a runner without a usable driver stops here, cleanly, with the diagnosis.
"$bin/archbench" doctor --json "$out/doctor.json" > "$out/doctor.txt" 2>&1; doctor_rc=$?
if [ "$doctor_rc" -eq 3 ]; then
  msg="$(grep -m1 -E '^summary:' "$out/doctor.txt" || echo 'no usable CUDA driver or device')"
  echo "::error::runner $label: no usable GPU: $msg (see doctor.txt)"
  cat "$out/doctor.txt"
  status no-device 3 "$msg"
  exit 3
fi
echo "doctor exit $doctor_rc"
worst=0
note() { [ "$1" -gt "$worst" ] && worst="$1"; return 0; }
[ "$doctor_rc" -ne 0 ] && note 1

# 2. the GPU suite under ctest, with a resource spec for this host's GPUs.
ct="$out/ctest"; mkdir -p "$ct"
cmake -DEXE="$bin/archbench_ops_tests" -DOUT="$ct/ops.cmake" -P "$root/suites/ops/discover_ops_tests.cmake" \
  && echo "include(\"$ct/ops.cmake\")" > "$ct/CTestTestfile.cmake" || note 4  # ctest leaves CMAKE_CURRENT_LIST_DIR empty
"$bin/archbench" resources --json "$ct/resources.json" || note 4
gpus="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["local"][0]["gpus"]))' "$ct/resources.json" 2>/dev/null || echo 1)"
# --no-tests=error: a suite that lists no test (a broken discovery) must not pass.
ctest --test-dir "$ct" -L gpu --resource-spec-file "$ct/resources.json" -j "$gpus" --output-on-failure \
  --no-tests=error --output-junit "$out/junit.xml" > "$out/ctest.txt" 2>&1 || note 1
tail -5 "$out/ctest.txt"

# 3. the run, 4. the comparison with the stored baseline of this device, 5. the report.
# A filtered leg (ARCHBENCH_FILTER) compares the same selection, and says in status.json that it
# checked only part of the operators.
filter="${ARCHBENCH_FILTER:-*}"
"$bin/archbench" run --filter "$filter" --json "$out/run.json" > "$out/run.txt" 2>&1; r=$?; echo "run exit $r"; [ "$r" -ne 0 ] && note "$r"
selection="$(grep -m1 '^selection: ' "$out/run.txt" | tr -d '"\\')"  # no quotes or backslashes in status.json
if [ -s "$out/run.json" ]; then
  "$bin/archbench" compare --baseline "$baselines" "$out/run.json" --filter "$filter" --json "$out/compare.json" \
    > "$out/compare.txt" 2>&1; r=$?
  # A slowdown must show in a re-run of the slower operators too (a transient disturbance does not).
  slower="$([ "$r" -eq 1 ] && "$bin/archbench" compare --baseline "$baselines" "$out/run.json" --filter "$filter" --list-slower)"
  rm -f "$out/rerun.json"
  if [ -n "$slower" ] && "$bin/archbench" run --filter "$slower" --json "$out/rerun.json" > "$out/rerun.txt" 2>&1 \
     || [ -s "$out/rerun.json" ]; then
    "$bin/archbench" compare --baseline "$baselines" "$out/run.json" --filter "$filter" --confirm "$out/rerun.json" \
      --json "$out/compare.json" > "$out/compare.txt" 2>&1; r=$?
  fi
  if [ "$r" -eq 5 ] && grep -q "no baseline for" "$out/compare.txt"; then
    echo "::warning::runner $label: $(cat "$out/compare.txt") - not compared"
  elif [ "$r" -ne 0 ]; then
    echo "::error::runner $label: compare exit $r"; tail -20 "$out/compare.txt"; note 1
  fi
  "$bin/archbench" report "$out/run.json" --baseline "$baselines" --html "$out/report.html" || note 4
fi
status "$([ "$worst" -eq 0 ] && echo passed || echo failed)" "$worst" "${selection:-all operators}; see the leg's files"
exit "$worst"
