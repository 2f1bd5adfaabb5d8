#!/usr/bin/env bash
# Issue #5's validation campaign on one GPU, in steps that fit the remote calls (state in $W,
# kept while the machine stays up; `pack` copies the results to $OUT):
#   ci/h200_campaign.sh BUILD runs PREFIX N [run args]  N runs -> $W/PREFIX-<i>.json, wall time each
#   ci/h200_campaign.sh BUILD baseline                  baseline update from every base-*.json
#   ci/h200_campaign.sh BUILD compare PREFIX [FILTER]   each PREFIX-*.json against it -> .compare.json, exit codes
#   ci/h200_campaign.sh BUILD slow PCT N FILTER         N runs of FILTER, each operator slowed by PCT
#                                                       (ARCHBENCH_TEST_SLOWDOWN), then compared
#   ci/h200_campaign.sh BUILD pack                      tar of $W's JSONs and logs -> $OUT/campaign.tgz
# tools/campaign/summarize.py turns the pack into the README's figures.
set -uo pipefail
b="${1:?build directory}"; step="${2:?step}"; shift 2
W="${W:-/tmp/campaign}"; mkdir -p "$W/baselines"
out="${OUT:-$PWD/h200-out}"; mkdir -p "$out"
ab="$b/archbench"
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
      "$ab" compare --baseline "$W/baselines" --filter "$filter" --json "${f%.json}.compare.json" "$f" \
        > "${f%.json}.compare.txt" 2>&1
      echo "$(basename "$f"): compare exit $?; $(grep -E '^summary|regress' "${f%.json}.compare.txt" | head -2 | tr '\n' ' ')"
    done ;;
  slow)
    pct="${1:?fraction}"; n="${2:?count}"; filter="${3:?filter}"
    for i in $(seq 1 "$n"); do
      start=$SECONDS
      ARCHBENCH_TEST_SLOWDOWN="*=$pct" "$ab" run --quiet --filter "$filter" --json "$W/slow$pct-$i.json" \
        > "$W/slow$pct-$i.txt" 2>&1
      echo "slow$pct-$i: run exit $? in $(( SECONDS - start )) s"
    done
    "$0" "$b" compare "slow$pct" "$filter" ;;
  pack)
    tar -czf "$out/campaign.tgz" -C "$W" . && ls -la "$out/campaign.tgz" ;;
  *) echo "unknown step $step"; exit 2 ;;
esac
