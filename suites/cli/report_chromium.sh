#!/usr/bin/env bash
# `archbench report` and `archbench merge` HTML in headless Chromium: each page loads with no
# console error (a control page with a deliberate error proves errors are seen), its DOM holds the
# charts, and a screenshot shows them (the heat map's and bar charts' colours are drawn).
# Exit 77 (ctest: skipped) without Chromium. Usage: report_chromium.sh ARCHBENCH FIXTURES WORK_DIR
set -uo pipefail
archbench="$1"; fixtures="$2/fleet"; work="$3"
here="$(cd "$(dirname "$0")" && pwd)"
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
if [ -z "$browser" ]; then echo "SKIP: Chromium is not installed (Debian: apt-get install chromium)"; exit 77; fi
rm -rf "$work"; mkdir -p "$work"
flags=(--headless --disable-gpu --no-sandbox --disable-dev-shm-usage --no-first-run --hide-scrollbars)
fail=0
die() { echo "FAIL: $*"; fail=1; }

"$archbench" report "$fixtures/results_h200.json" --baseline "$fixtures/baselines" --html "$work/report.html" || die "report exited $?"
"$archbench" report "$fixtures/results_h100_sm80build.json" --html "$work/report_h100.html" || die "report (h100) exited $?"
"$archbench" merge "$fixtures/results_h200.json" "$fixtures/results_h100_sm80build.json" --baselines "$fixtures/baselines" \
  -o "$work/fleet" || die "merge exited $?"

# archbench framework --html: a forced SDPA fallback (backends side by side) and the denoiser steps (exit 1: the
# sm_80-only plug-in has no image on the H200).
"$archbench" framework --answer "$2/framework/framework_h200_no_cudnn_sdpa.json" --html "$work/framework.html" > /dev/null \
  || die "framework --html exited $?"
"$archbench" framework --answer "$2/framework/framework_h200_steps_plugin.json" --html "$work/framework_steps.html" > /dev/null
[ $? -eq 1 ] || die "framework --html (steps) did not exit 1"

# archbench history check --html: the trend page of the 13 H200 runs (six layernorm operators stepped at run 9).
# A build without SQLite has no store: the page is left out, and the test says so.
pages=(report report_h100 fleet/fleet framework framework_steps)
if "$archbench" history add "$2"/history_h200/run_*.json --store "$work/history.sqlite" > "$work/history_add.txt" 2>&1; then
  "$archbench" history check --store "$work/history.sqlite" --html "$work/trend.html" > /dev/null
  [ $? -eq 1 ] || die "history check --html did not exit 1"
  pages+=(trend)
else
  echo "note: no trend page: $(cat "$work/history_add.txt")"
fi

# Loads a page, writes its DOM to $2.dom and Chromium's log to $2.log; prints the console errors.
console_errors() {
  timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 --dump-dom "file://$1" > "$2.dom" 2> "$2.log"
  grep -E 'CONSOLE|Uncaught|Failed to load resource|ERR_' "$2.log" || true
}

# The control: a page with a console error and a missing resource must be caught.
cat > "$work/control.html" <<'HTML'
<!DOCTYPE html><html><body><img src="no-such-file.png"><script>console.error("archbench-control-error")</script></body></html>
HTML
if [ -z "$(console_errors "$work/control.html" "$work/control")" ]; then
  die "the control page's console error was not seen; Chromium's log cannot be checked ($work/control.log)"
fi

for page in "${pages[@]}"; do
  errors="$(console_errors "$work/$page.html" "$work/$page")"
  [ -z "$errors" ] || die "$page.html: console errors: $errors"
  grep -q '<svg\|<table' "$work/$page.dom" || die "$page.html: the DOM holds no chart or table"
done
for section in 'class="heatmap"' 'class="bars"' 'class="roofline"' 'Regressions and failures'; do
  grep -q "$section" "$work/report.dom" || die "report.html: no $section in the rendered DOM"
done
grep -q 'matmul/gemm_simt/f32/M8192_N960_K320' "$work/fleet/fleet.dom" || die "fleet.html: an operator is missing"
grep -q 'class="bars"' "$work/framework.dom" && grep -q 'default-slower' "$work/framework.dom" \
  || die "framework.html: no backend chart or finding"
grep -q 'archbench_example_scale2_80.so' "$work/framework_steps.dom" && grep -q 'cuda_graph' "$work/framework_steps.dom" \
  || die "framework_steps.html: the plug-in's file or the steps' fixes are missing"
if [ -f "$work/trend.html" ]; then
  [ "$(grep -o 'class="trend"' "$work/trend.dom" | wc -l)" -eq 6 ] || die "trend.html: not 6 trend charts"
fi

shot() {
  timeout 120 "$browser" "${flags[@]}" --window-size="$2" --screenshot="$3" "file://$1" > "$3.log" 2>&1
  [ -s "$3" ] || die "no screenshot of $1 ($3.log)"
}
shot "$work/report.html" 1400,3200 "$work/report.png"
shot "$work/fleet/fleet.html" 1400,1400 "$work/fleet.png"
shot "$work/framework.html" 1300,2400 "$work/framework.png"
[ -f "$work/trend.html" ] && shot "$work/trend.html" 900,1400 "$work/trend.png"
if command -v python3 >/dev/null 2>&1; then
  # sass green (heat map), f32 blue and f16 orange (bars): the charts were drawn.
  python3 "$here/png_colors.py" "$work/report.png" '#7bc98f' '#4e79a7' '#f28e2b' || die "report.png does not show the charts"
  # sass green and missing red (matrix cells of the two devices).
  python3 "$here/png_colors.py" "$work/fleet.png" '#c7ecd0' '#f7c1c1' || die "fleet.png does not show the matrix"
  # the default dispatch blue, the fastest backend green, the other backends grey.
  python3 "$here/png_colors.py" "$work/framework.png" '#4e79a7' '#59a14f' '#bab0ac' || die "framework.png does not show the bars"
  # the series blue, the segment medians green, the step red.
  [ ! -f "$work/trend.html" ] || python3 "$here/png_colors.py" "$work/trend.png" '#4e79a7' '#59a14f' '#b3261e' \
    || die "trend.png does not show the series"
else
  for png in report fleet; do
    [ "$(stat -c %s "$work/$png.png")" -gt 20000 ] || die "$png.png is too small to hold the charts"
  done
fi
[ "$fail" -eq 0 ] && echo "PASS: pages load without console errors; screenshots in $work"
exit "$fail"
