#!/usr/bin/env bash
# `archbench framework` without a GPU: the judge on answers recorded on an H200 (suites/fixtures/framework),
# bad input, and the probe's own verdicts for an interpreter without torch and for stand-in torch modules
# (too old, built without CUDA) that exercise the probe's checks, not a user's framework.
# Usage: framework_answers.sh ARCHBENCH FIXTURES WORK_DIR
set -uo pipefail
archbench="$1"; fixtures="$2"; work="$3"
mkdir -p "$work"
fails=0
expect() {  # expect WANT_RC WHAT -- command...
  local want="$1" what="$2"; shift 3
  "$@" > "$work/out.txt" 2> "$work/err.txt"; local rc=$?
  if [ "$rc" -ne "$want" ]; then echo "FAIL: $what: exit $rc, want $want"; cat "$work/out.txt" "$work/err.txt"; fails=$((fails + 1)); fi
}
count() { grep -c "$1" "$work/out.txt"; }

printf '{"schema":"archbench.framework.probe","status":"ok","ops":[{"id":"x","variants":[{"backend":"default","status":"boom"}]}]}' > "$work/bad.json"
expect 0 "the full H200 answer" -- "$archbench" framework --answer "$fixtures/framework_h200_full.json" --json "$work/full.json"
[ "$(count ' layout-conversion: ')" -eq 9 ] || { echo "FAIL: layout-conversion findings: $(count ' layout-conversion: ')"; fails=$((fails + 1)); }
[ "$(count ' default-slower: ')" -eq 0 ] || { echo "FAIL: default-slower in the full answer"; fails=$((fails + 1)); }
grep -q "summary: 90 framework op(s)" "$work/out.txt" || { echo "FAIL: not 90 ops"; fails=$((fails + 1)); }
grep -q "^extension attention: xformers not installed; flash_attn not installed; sageattention not installed" "$work/out.txt" \
  || { echo "FAIL: the extension packages' line"; fails=$((fails + 1)); }
awk 'length($0) > 120 { bad = 1 } END { exit bad }' "$work/out.txt" || { echo "FAIL: wider than 120 columns"; fails=$((fails + 1)); }
# The answer with verdicts, judged again, says the same.
cp "$work/out.txt" "$work/first.txt"
expect 0 "its --json judged again" -- "$archbench" framework --answer "$work/full.json"
diff -q "$work/first.txt" "$work/out.txt" > /dev/null || { echo "FAIL: judging --json again differs"; fails=$((fails + 1)); }

expect 0 "the forced fallback" -- "$archbench" framework --answer "$fixtures/framework_h200_no_cudnn_sdpa.json"
[ "$(count ' default-slower: ')" -eq 16 ] || { echo "FAIL: default-slower findings: $(count ' default-slower: ')"; fails=$((fails + 1)); }
grep -q "SDPA backends disabled: cudnn" "$work/out.txt" || { echo "FAIL: the disabled backend not said"; fails=$((fails + 1)); }

# Denoiser steps and a plug-in built for sm_80 only (TORCH_CUDA_ARCH_LIST=8.0 on the H200): the missing image
# names the extension's file, as judged there; the four models stepped, graph capture the best fix of SD1.5.
expect 1 "steps and an sm_80-only plug-in" -- "$archbench" framework --answer "$fixtures/framework_h200_steps_plugin.json"
grep -q "archbench_example_scale2_80.so: missing:" "$work/out.txt" \
  || { echo "FAIL: the plug-in's file not named"; fails=$((fails + 1)); }
for m in sd15-unet sdxl-unet sd3-mmdit flux-dit; do
  grep -q "^$m " "$work/out.txt" || { echo "FAIL: step $m missing"; fails=$((fails + 1)); }
done
grep -q "^sd15-unet .*cuda_graph" "$work/out.txt" || { echo "FAIL: SD1.5's best fix"; fails=$((fails + 1)); }
awk 'length($0) > 120 { bad = 1 } END { exit bad }' "$work/out.txt" || { echo "FAIL: steps wider than 120 columns"; fails=$((fails + 1)); }

# Without diffusers (the H200's venv as shipped): composites of the four models' ops ran, and the report says so.
expect 0 "composite steps" -- "$archbench" framework --answer "$fixtures/framework_h200_composite.json" --html "$work/composite.html"
grep -q "composites of each model's ops at its shapes" "$work/out.txt" || { echo "FAIL: composites not said"; fails=$((fails + 1)); }
grep -q "pip install diffusers for the real models" "$work/out.txt" || { echo "FAIL: no fix for the composites"; fails=$((fails + 1)); }
for m in sd15-unet sdxl-unet sd3-mmdit flux-dit; do
  grep -q "^$m " "$work/out.txt" || { echo "FAIL: composite step $m missing"; fails=$((fails + 1)); }
done
grep -q "Denoiser steps: composites" "$work/composite.html" || { echo "FAIL: composites not on the page"; fails=$((fails + 1)); }
awk 'length($0) > 120 { bad = 1 } END { exit bad }' "$work/out.txt" || { echo "FAIL: composites wider than 120 columns"; fails=$((fails + 1)); }
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); a["steps"]["status"]="maybe"; json.dump(a,open(sys.argv[2],"w"))' \
  "$fixtures/framework_h200_composite.json" "$work/bad_steps.json"
expect 5 "an unknown steps status" -- "$archbench" framework --answer "$work/bad_steps.json"
grep -q "steps.status is 'maybe'" "$work/err.txt" || { echo "FAIL: no reason for the steps status"; fails=$((fails + 1)); }

# The gate: two full runs on the H200 (separate leases) against each other find nothing; the forced
# fallback against the full run is 16 backend changes and 16 slowdowns.
expect 0 "A/A: two H200 runs" -- "$archbench" framework --answer "$fixtures/framework_h200_full.json" --baseline "$fixtures/framework_h200_full_earlier.json"
! grep -q "against the baseline -> FAIL" "$work/out.txt" || { echo "FAIL: A/A regressions"; fails=$((fails + 1)); }
expect 1 "the fallback against the full run" -- "$archbench" framework --answer "$fixtures/framework_h200_no_cudnn_sdpa.json" --baseline "$fixtures/framework_h200_full.json"
[ "$(count '^  backend-changed framework/sdpa/.*: cudnn-sdpa -> flash-attention-2')" -eq 16 ] || { echo "FAIL: backend changes: $(count backend-changed)"; fails=$((fails + 1)); }
[ "$(count '^  slower ')" -eq 16 ] || { echo "FAIL: slowdowns: $(count '^  slower ')"; fails=$((fails + 1)); }
printf '{"schema":"archbench.framework.probe","status":"ok","ops":[]}' > "$work/empty.json"
expect 1 "a baseline with nothing in common" -- "$archbench" framework --answer "$fixtures/framework_h200_full.json" --baseline "$work/empty.json"
grep -q "nothing compared" "$work/out.txt" || { echo "FAIL: nothing compared not said"; fails=$((fails + 1)); }
expect 5 "a baseline that is not an answer" -- "$archbench" framework --answer "$fixtures/framework_h200_full.json" --baseline "$work/bad.json"

# Bad input: exit 5 with the reason; a filter matching nothing: exit 2.
expect 5 "an unknown variant status" -- "$archbench" framework --answer "$work/bad.json"
grep -q "unknown variant status 'boom'" "$work/err.txt" || { echo "FAIL: no reason for bad.json"; fails=$((fails + 1)); }
head -c 100 "$fixtures/framework_h200_full.json" > "$work/truncated.json"
expect 5 "a truncated answer" -- "$archbench" framework --answer "$work/truncated.json"
expect 5 "a missing answer" -- "$archbench" framework --answer "$work/nonexistent.json"
expect 2 "a filter that matches nothing" -- "$archbench" framework --filter 'nothing/*' --answer "$fixtures/framework_h200_full.json"
expect 2 "an unknown SDPA backend" -- "$archbench" framework --disable-sdpa-backend fast

# The probe's own verdicts. An interpreter without torch (CI's python3 has none: else the check is skipped).
if ! python3 -c 'import torch' 2> /dev/null; then
  expect 5 "python3 without torch" -- "$archbench" framework --python python3 --quick
  grep -q "no-torch" "$work/err.txt" || { echo "FAIL: no-torch not said"; fails=$((fails + 1)); }
fi
expect 5 "an interpreter that does not exist" -- "$archbench" framework --python "$work/no-such-python" --quick
# Stand-in torch modules: too old, and a CPU-only build.
for kind in old cpu; do
  mkdir -p "$work/$kind/torch"
  if [ "$kind" = old ]; then
    printf '__version__ = "2.1.0"\nclass version:\n    cuda = "12.1"\n' > "$work/$kind/torch/__init__.py"
  else
    printf '__version__ = "2.6.0+cpu"\nclass version:\n    cuda = None\nclass backends:\n    class cudnn:\n        @staticmethod\n        def is_available():\n            return False\n' > "$work/$kind/torch/__init__.py"
  fi
done
printf '%s\n' 'class cudnn:' '    @staticmethod' '    def is_available():' '        return False' > "$work/old/torch/backends.py"
printf '#!/bin/sh\nPYTHONPATH=%s exec python3 "$@"\n' "$work/old" > "$work/python_old"; chmod +x "$work/python_old"
printf '#!/bin/sh\nPYTHONPATH=%s exec python3 "$@"\n' "$work/cpu" > "$work/python_cpu"; chmod +x "$work/python_cpu"
expect 5 "a torch older than 2.4" -- "$archbench" framework --python "$work/python_old" --quick
grep -q "torch-too-old" "$work/err.txt" || { echo "FAIL: torch-too-old not said"; cat "$work/err.txt"; fails=$((fails + 1)); }
expect 3 "a CPU-only torch" -- "$archbench" framework --python "$work/python_cpu" --quick
grep -q "torch-without-cuda" "$work/err.txt" || { echo "FAIL: torch-without-cuda not said"; cat "$work/err.txt"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "framework answers: all checks passed" || echo "framework answers: $fails check(s) failed"
exit $(( fails > 0 ))
