#!/usr/bin/env bash
# The GPU suite under compute-sanitizer: memcheck, racecheck, initcheck and synccheck, each with
# --error-exitcode so any finding fails. The fault-injection operators are not in
# archbench_ops_tests (only in archbench_faulty), so they are excluded by construction.
# Usage: ci/h200_sanitizers.sh BUILD_DIR [gtest filter] [tools...]   (logs to $OUT or ./h200-out)
set -uo pipefail
b="${1:?build directory}"; filter="${2:-*}"; shift $(( $# >= 2 ? 2 : $# ))
tools=("$@"); [ "${#tools[@]}" -eq 0 ] && tools=(memcheck racecheck initcheck synccheck)
out="${OUT:-$PWD/h200-out}"; mkdir -p "$out"
status=0
for tool in "${tools[@]}"; do
  start=$(date +%s)
  compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 20 \
    "$b/suites/archbench_ops_tests" --gtest_filter="$filter" > "$out/sanitizer-$tool.log" 2>&1
  rc=$?
  echo "$tool: exit $rc in $(( $(date +%s) - start )) s; $(grep -E 'ERROR SUMMARY' "$out/sanitizer-$tool.log" | tail -1)"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$out/sanitizer-$tool.log" | tail -3
  [ "$rc" -ne 0 ] && status=1
done
exit "$status"
