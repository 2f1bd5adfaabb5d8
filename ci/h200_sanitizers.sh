#!/usr/bin/env bash
# The GPU suite under compute-sanitizer: memcheck, racecheck, initcheck and synccheck, each with
# --error-exitcode so any finding fails. The fault-injection operators are not in
# archbench_ops_tests (only in archbench_faulty), so they are excluded by construction.
# Every tool runs over the suite split into SHARDS gtest shards, all tool x shard processes at
# once (the sanitizers are CPU-bound; one GPU serves them all), each bounded by SAN_TIMEOUT
# seconds so that the logs come back within one remote call.
# On a host of several GPUs, SAN_GPUS="0 1" deals the tools out over them (CUDA_VISIBLE_DEVICES).
# SAN_ARGS_<tool> adds options for one tool, e.g. SAN_ARGS_racecheck="--kernel-name-exclude kns=cudnn".
# Usage: SHARDS=3 SAN_TIMEOUT=540 ci/h200_sanitizers.sh BUILD_DIR [gtest filter] [tools...]
#        (logs to $OUT or ./h200-out: sanitizer-<tool>-<shard>.log)
set -uo pipefail
b="${1:?build directory}"; filter="${2:-*}"; shift $(( $# >= 2 ? 2 : $# ))
tools=("$@"); [ "${#tools[@]}" -eq 0 ] && tools=(memcheck racecheck initcheck synccheck)
shards="${SHARDS:-3}"; limit="${SAN_TIMEOUT:-540}"
out="${OUT:-$PWD/h200-out}"; mkdir -p "$out"
start=$(date +%s)
read -r -a gpus <<< "${SAN_GPUS:-}"
pids=(); t=0
for tool in "${tools[@]}"; do
  extra_var="SAN_ARGS_$tool"; read -r -a extra <<< "${!extra_var:-}"
  visible="${CUDA_VISIBLE_DEVICES:-}"; [ "${#gpus[@]}" -gt 0 ] && visible="${gpus[$((t % ${#gpus[@]}))]}"
  t=$((t + 1))
  echo "$tool: GPU ${visible:-default}, extra options: ${extra[*]:-none}"
  for shard in $(seq 0 $((shards - 1))); do
    ( export CUDA_VISIBLE_DEVICES="$visible"; [ -z "$visible" ] && unset CUDA_VISIBLE_DEVICES
      GTEST_TOTAL_SHARDS="$shards" GTEST_SHARD_INDEX="$shard" timeout "$limit" \
        compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 20 "${extra[@]}" \
        "$b/suites/archbench_ops_tests" --gtest_filter="$filter" > "$out/sanitizer-$tool-$shard.log" 2>&1
      echo $? > "$out/sanitizer-$tool-$shard.rc" ) &
    pids+=($!)
  done
done
wait "${pids[@]}"
status=0
for tool in "${tools[@]}"; do
  passed=0; failed=0; skipped=0; errors=0; codes=()
  for shard in $(seq 0 $((shards - 1))); do
    log="$out/sanitizer-$tool-$shard.log"; rc="$(cat "$out/sanitizer-$tool-$shard.rc")"; codes+=("$rc")
    # One line per test with its time, "(12 ms)"; the summary lists at the end carry none.
    passed=$((passed + $(grep -cE '^\[       OK \] .* \([0-9]+ ms\)$' "$log")))
    failed=$((failed + $(grep -cE '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$log")))
    skipped=$((skipped + $(grep -cE '^\[  SKIPPED \] .* \([0-9]+ ms\)$' "$log")))
    n="$(grep -oE 'ERROR SUMMARY: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')"; errors=$((errors + ${n:-0}))
    [ "$rc" -ne 0 ] && status=1
  done
  echo "$tool: exit codes ${codes[*]} (124 = SAN_TIMEOUT), $passed passed, $failed failed, $skipped skipped, $errors sanitizer errors"
done
echo "sanitizers finished in $(( $(date +%s) - start )) s"
exit "$status"
