#!/usr/bin/env bash
# ctest -L environment: `archbench scan` of the active Python environment (python3) for the GPUs
# present, so that "ctest after an environment change" covers the user's own stack. Exit 77
# (ctest: skipped) with the reason without python3 or without a usable GPU; 1 when some package
# cannot run on a GPU here. Unreadable files are listed, not failed on.
# Usage: environment_scan.sh ARCHBENCH
set -uo pipefail
archbench="$1"
command -v python3 > /dev/null || { echo "SKIP: no python3 on PATH: no environment to scan"; exit 77; }
out="$("$archbench" scan -q 2>&1)"; rc=$?
echo "$out"
case "$rc" in
  0 | 5) exit 0 ;;
  3) echo "SKIP: no usable GPU here to judge python3's environment for (archbench scan --device CC judges without one)"; exit 77 ;;
  1) if echo "$out" | grep -q "nothing was judged"; then echo "SKIP: python3's environment holds no device code"; exit 77; fi
     exit 1 ;;
  *) exit "$rc" ;;
esac
