#!/usr/bin/env bash
# CI merge job: the fleet report from every leg's run.json (downloaded artifacts, one directory
# per leg), and its Markdown into the job summary, cut under GitHub's 1 MiB limit.
# Usage: merge.sh ARCHBENCH LEGS_DIR OUT [SUMMARY_FILE]   (SUMMARY_FILE: $GITHUB_STEP_SUMMARY)
set -uo pipefail
archbench="$1"; legs="$2"; out="$3"; summary="${4:-}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
mapfile -t runs < <(find "$legs" -name run.json -size +0 | sort)
{
  echo "### Legs"
  for s in $(find "$legs" -name status.json | sort); do
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(f"- `{s[\"label\"]}`: {s[\"status\"]} (exit {s[\"exit\"]}) {s[\"message\"]}")' "$s"
  done
} > "$out.legs.md" 2>/dev/null || true
if [ "${#runs[@]}" -eq 0 ]; then
  echo "::error::no leg produced results (run.json) under $legs"
  [ -n "$summary" ] && { echo "## archbench fleet report: no results"; cat "$out.legs.md"; } >> "$summary"
  exit 1
fi
"$archbench" merge "${runs[@]}" --baselines "$root/baselines" -o "$out"; rc=$?
if [ -n "$summary" ] && [ -s "$out/fleet.md" ]; then
  # fleet.md is already cut under 1000 KiB; head guards the limit whatever happens.
  { cat "$out/fleet.md"; cat "$out.legs.md"; } | head -c 1000000 >> "$summary"
fi
exit "$rc"
