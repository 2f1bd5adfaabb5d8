#!/usr/bin/env bash
# `archbench arch-list` with this machine's nvcc: entries, resolved targets, devices served, the known
# traps, "did you mean" for nvcc spellings, exit 2 for what cannot be built. No GPU needed.
# Usage: arch_list.sh ARCHBENCH
set -uo pipefail
archbench="$1"; fails=0
check() {  # check WANT_RC LIST PATTERN...: exit code, and each pattern in the output
  local want="$1" list="$2"; shift 2
  out="$("$archbench" arch-list "$list" 2>&1)"; local rc=$?
  [ "$rc" -eq "$want" ] || { echo "FAIL: '$list': exit $rc, want $want"; echo "$out"; fails=$((fails + 1)); return; }
  for p in "$@"; do
    grep -qE -- "$p" <<< "$out" || { echo "FAIL: '$list': no '$p' in:"; echo "$out"; fails=$((fails + 1)); }
  done
  awk 'length($0) > 120 { bad = 1 } END { exit bad }' <<< "$out" || { echo "FAIL: '$list': over 120 columns"; fails=$((fails + 1)); }
}
check 0 "8.0;9.0a;12.0+PTX" "^  9.0a +SASS sm_90a \(arch-specific: 9.0 only\)" "^resolved: SASS sm_80 sm_90a sm_120 \| PTX compute_120" \
  "^native \(SASS\): 8.0 \(A100\), 8.6" "warning: sm_90a alone is arch-specific" "vllm#41738"
check 0 "10.0a" "resolved: SASS sm_100a \| PTX none" "^native \(SASS\): 10.0 \(B200\)$" "vllm#56548" "warning: no PTX"
check 0 "80-real;90" "^CMAKE_CUDA_ARCHITECTURES" "through PTX JIT \(slow first start\): 10.0" "^  90 +SASS sm_90, PTX compute_90"
check 2 "sm_90;compute_120" 'did you mean "9.0;12.0\+PTX"'
check 2 "9.5" "nvcc [0-9.]+ supports"
check 2 "" "."
[ "$fails" -eq 0 ] && echo "arch-list: all checks passed"
exit $(( fails > 0 ))
