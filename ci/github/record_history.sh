#!/usr/bin/env bash
# CI merge job, after the fleet report: every leg's run into the history store, then the change-point gate.
# A leg that recorded nothing (no run.json: no usable GPU, a build that failed, a leg that died) fails the job
# loudly, naming the leg: a night without its results must not read as a quiet one.
# Usage: record_history.sh ARCHBENCH LEGS_DIR STORE OUT [SUMMARY_FILE]
#   STORE: an SQLite file (the nightly carries it from night to night in the Actions cache) or a PostgreSQL
#   connection string (a binary built with libpq); OUT gets history.json, history.md and trend.html.
# Exit: 0 recorded and no change point; 1 a leg recorded nothing or a confirmed step; 5 the store refused.
set -uo pipefail
archbench="$1"; legs="$2"; store="$3"; out="$4"; summary="${5:-}"
mkdir -p "$out"
rc=0
runs=()
for status in $(find "$legs" -name status.json | sort); do
  leg="$(dirname "$status")"
  if [ -s "$leg/run.json" ]; then
    runs+=("$leg/run.json")
  else
    echo "::error::leg $(basename "$leg") recorded nothing: no run.json ($(tr -d '\n' < "$status"))"
    rc=1
  fi
done
# A run.json without a status.json is a leg too.
while IFS= read -r r; do
  [ -e "$(dirname "$r")/status.json" ] || runs+=("$r")
done < <(find "$legs" -name run.json -size +0 | sort)
if [ "${#runs[@]}" -eq 0 ]; then
  echo "::error::no leg produced results (run.json) under $legs: nothing recorded into the history"
  exit 1
fi
"$archbench" history add "${runs[@]}" --store "$store" > "$out/add.txt" 2>&1; add_rc=$?
cat "$out/add.txt"
if [ "$add_rc" -ne 0 ]; then
  echo "::error::history add failed (exit $add_rc): $(tail -1 "$out/add.txt")"
  exit "$add_rc"
fi
"$archbench" history check --store "$store" --json "$out/history.json" --markdown "$out/history.md" \
  --html "$out/trend.html" > "$out/check.txt" 2>&1; check_rc=$?
tail -20 "$out/check.txt"
[ "$check_rc" -ne 0 ] && { echo "::error::history check: exit $check_rc (see history.md)"; [ "$check_rc" -gt "$rc" ] && rc="$check_rc"; }
[ -n "$summary" ] && [ -s "$out/history.md" ] && head -c 200000 "$out/history.md" >> "$summary"
exit "$rc"
