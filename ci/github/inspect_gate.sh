#!/usr/bin/env bash
# CI job before any GPU is used (CPU runner): for each built variant, `archbench inspect --fleet`
# with the fleet devices whose legs run that variant. Fails (exit 1) when a fleet device would
# have no image for some kernel, so a nightly never spends GPU time on a build that cannot run.
# Usage: inspect_gate.sh FLEET_JSON DIST   (DIST holds archbench-VARIANT.tar.gz, or VARIANT/bin/archbench)
set -uo pipefail
fleet="$1"; dist="$2"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
rc=0; checked=0
variants="$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["variants"]))' "$fleet")" || exit 2
for v in $variants; do
  if [ -f "$dist/archbench-$v.tar.gz" ]; then
    mkdir -p "$work/$v" && tar -C "$work/$v" -xzf "$dist/archbench-$v.tar.gz"; exe="$work/$v/bin/archbench"
  elif [ -x "$dist/$v/bin/archbench" ]; then
    exe="$dist/$v/bin/archbench"
  else
    echo "::warning::no build of variant $v in $dist; its devices are not checked"; continue
  fi
  python3 "$here/fleet_matrix.py" "$fleet" --variant "$v" --out "$work/fleet-$v.json" || exit 2
  echo "== variant $v: $("$exe" --version | head -3 | tr '\n' ' ')"
  "$exe" inspect --fleet "$work/fleet-$v.json" "$exe"; r=$?
  checked=$((checked + 1))
  if [ "$r" -ne 0 ]; then
    echo "::error::variant $v: a fleet device has no image for some kernel (archbench inspect exit $r); see above"
    rc=1
  fi
done
[ "$checked" -gt 0 ] || { echo "::error::no variant found in $dist"; exit 2; }
exit "$rc"
