#!/usr/bin/env bash
# Issue #5's validation campaign on one GPU, in steps that fit the remote calls (state in $W,
# kept while the machine stays up; `pack` copies the results to $OUT):
#   ci/h200_campaign.sh BUILD runs PREFIX N [run args]  N runs -> $W/PREFIX-<i>.json, wall time each
#   ci/h200_campaign.sh BUILD baseline                  baseline update from every base-*.json
#   ci/h200_campaign.sh BUILD compare PREFIX [FILTER]   each PREFIX-*.json against it -> .compare.json, exit codes
#                                                       (BASELINE_DIR=baselines: against the committed one instead)
#   ci/h200_campaign.sh BUILD slow PCT N [FILTER]       N runs of FILTER, each operator slowed by PCT
#                                                       (ARCHBENCH_TEST_SLOWDOWN), then compared; the default
#                                                       FILTER is SLOWDOWN_SUBSET below
#   ci/h200_campaign.sh BUILD pack                      tar of $W's JSONs and logs -> $OUT/campaign.tgz
# On a host of several GPUs, GPUS="0 1" runs the `runs` and `slow` steps on every listed GPU at
# once (N runs each, files PREFIX-g<gpu>-<i>.json): one GPU's work never shares a GPU with
# another's, and a two-GPU host collects twice the runs in the same time.
# tools/campaign/summarize.py turns the pack into the figures of docs/validation.md.
set -uo pipefail
# One shape per variant (26 operators, about 30 s a run on the H200): the f16 GEMMs at 4096^3 and
# the SIMT GEMM, every norm and elementwise f16 operator, the 64x64 3x3 conv, the 1024-token
# attention, the SD1.5 step at 64x64, with the f32 SIMT conv and attention.
SLOWDOWN_SUBSET='matmul/*/f16/M4096*,matmul/gemm_simt/*/M4096*,norm/*/f16/*,elementwise/*/f16/*,conv/*/f16/B2_C320_H64_W64_K320_3x3_s1,conv/conv_simt/*/B2_C320_H64_W64_K320_3x3_s1,attention/*/f16/B2_H20_Nq1024_Nk1024_D64,attention/flash_simt/*/B2_H20_Nq1024_Nk1024_D64,composite/*/f16/B2_H64*'
b="${1:?build directory}"; step="${2:?step}"; shift 2
W="${W:-/tmp/campaign}"; mkdir -p "$W/baselines"
out="${OUT:-$PWD/h200-out}"; mkdir -p "$out"
ab="$b/archbench"
# One step per listed GPU at once, each pinned with CUDA_VISIBLE_DEVICES and named PREFIX-g<gpu>.
if [ -n "${GPUS:-}" ] && { [ "$step" = runs ] || [ "$step" = slow ]; }; then
  pids=()
  for g in $GPUS; do
    if [ "$step" = runs ]; then args=("${1:?prefix}-g$g" "${@:2}"); else args=("$@"); fi
    ( export CUDA_VISIBLE_DEVICES="$g" SLOW_SUFFIX="-g$g"; GPUS= "$0" "$b" "$step" "${args[@]}" ) &
    pids+=($!)
  done
  wait "${pids[@]}"; exit 0
fi
case "$step" in
  runs)
    prefix="${1:?prefix}"; n="${2:?count}"; shift 2
    for i in $(seq 1 "$n"); do
      start=$SECONDS
      "$ab" run --quiet --json "$W/$prefix-$i.json" "$@" > "$W/$prefix-$i.txt" 2>&1
      echo "$prefix-$i: exit $? in $(( SECONDS - start )) s"
    done ;;
  baseline)
    from=(); for f in "$W"/base-*.json; do from+=(--from "$f"); done
    "$ab" baseline update "${from[@]}" --dir "$W/baselines" --force; echo "baseline update exit $?"
    ls -la "$W/baselines" ;;
  compare)
    prefix="${1:?prefix}"; filter="${2:-*}"
    for f in "$W/$prefix"-*.json; do
      case "$f" in *.compare.json) continue ;; esac
      "$ab" compare --baseline "${BASELINE_DIR:-$W/baselines}" --filter "$filter" --json "${f%.json}.compare.json" "$f" \
        > "${f%.json}.compare.txt" 2>&1
      echo "$(basename "$f"): compare exit $?; $(grep -E '^summary|regress' "${f%.json}.compare.txt" | head -2 | tr '\n' ' ')"
    done ;;
  slow)
    pct="${1:?fraction}"; n="${2:?count}"; filter="${3:-$SLOWDOWN_SUBSET}"
    name="slow$pct${SLOW_SUFFIX:-}"
    for i in $(seq 1 "$n"); do
      start=$SECONDS
      ARCHBENCH_TEST_SLOWDOWN="*=$pct" "$ab" run --quiet --filter "$filter" --json "$W/$name-$i.json" \
        > "$W/$name-$i.txt" 2>&1
      echo "$name-$i: run exit $? in $(( SECONDS - start )) s"
    done
    if ls "${BASELINE_DIR:-$W/baselines}"/*.json >/dev/null 2>&1; then "$0" "$b" compare "$name" "$filter"; fi ;;
  pack)
    tar -czf "$out/campaign.tgz" -C "$W" . && ls -la "$out/campaign.tgz" ;;
  *) echo "unknown step $step"; exit 2 ;;
esac
