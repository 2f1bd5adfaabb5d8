#!/usr/bin/env bash
# ci/github/nightly.yml and its job scripts, dry-run on this machine (no GPU needed):
# - the workflow lint (PyYAML and the text fallback), which must also reject broken copies;
# - the CPU inspect gate for real on the built archbench: passes for devices the build covers,
#   fails (exit 1) when a fleet device has no image (one this build cannot serve is added);
# - the GPU leg on a runner without a usable GPU (hidden with CUDA_VISIBLE_DEVICES on a GPU
#   machine): it must stop cleanly after the doctor (exit 3, status.json "no-device", doctor.json
#   written);
# - the merge job's script on the fleet fixtures, writing the job summary.
# Usage: ci_workflow.sh ARCHBENCH SOURCE_DIR WORK_DIR
set -uo pipefail
archbench="$(realpath "$1")"; src="$(realpath "$2")"; work="$3"
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "$0")/checks.sh"
check="$src/ci/github/check_workflow.py"; wf="$src/ci/github/nightly.yml"; fleet="$src/ci/fleet.json"

for s in "$src"/ci/github/*.sh; do bash -n "$s" || bad "$s does not parse"; done
python3 "$check" "$wf" "$fleet" || bad "workflow lint (PyYAML if present)"
ARCHBENCH_NO_YAML=1 python3 "$check" "$wf" "$fleet" || bad "workflow lint (text fallback)"
if command -v actionlint >/dev/null 2>&1; then actionlint "$wf" || bad "actionlint"; fi
# The lint must catch what matters.
sed 's/fail-fast: false/fail-fast: true/' "$wf" > "$work/ff.yml"
sed 's/^  workflow_dispatch:/  pull_request:\n  workflow_dispatch:/' "$wf" > "$work/pr.yml"
sed 's/needs: \[plan, inspect\]/needs: [plan]/' "$wf" > "$work/gate.yml"
for broken in ff pr gate; do
  python3 "$check" "$work/$broken.yml" "$fleet" > "$work/$broken.out" 2>&1 && bad "the lint accepts $broken.yml"
  ARCHBENCH_NO_YAML=1 python3 "$check" "$work/$broken.yml" "$fleet" > "$work/$broken.fb.out" 2>&1 && bad "the fallback lint accepts $broken.yml"
done

# The plan job's matrices from ci/fleet.json.
python3 "$src/ci/github/fleet_matrix.py" "$fleet" > "$work/plan.out" || bad "fleet_matrix.py"
grep -q '^gpu={"include": \[{"label": "gpu-a100"' "$work/plan.out" || bad "gpu matrix: $(cat "$work/plan.out")"
grep -q '^build={"include": \[{"variant": "x86_64"' "$work/plan.out" || bad "build matrix"

# The inspect gate, for real, on this build (arch list of this build dir).
mkdir -p "$work/dist/x86_64/bin" && ln -s "$archbench" "$work/dist/x86_64/bin/archbench"
python3 - "$fleet" "$work/covered.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["devices"] = [d for d in f["devices"] if d["label"] in ("gpu-a100", "gpu-h200")]  # CC 8.0 and 9.0
json.dump(f, open(sys.argv[2], "w"))
PY
built="$("$archbench" --version | grep -i 'arch list' | head -1)"
if echo "$built" | grep -q '8\.0' && echo "$built" | grep -q '9\.0'; then
  bash "$src/ci/github/inspect_gate.sh" "$work/covered.json" "$work/dist" > "$work/gate_ok.out" 2>&1 \
    || { bad "inspect gate on devices this build covers"; tail -20 "$work/gate_ok.out"; }
fi
# A fleet device this build cannot serve, chosen from its own targets: a T4 (7.5) when nothing
# covers 7.5 (PTX only JITs upwards), else an RTX 5090 (12.0) when there is no PTX and no sm_12x.
# A build that covers both (the default list has 7.5 SASS and 12.0 PTX) has none to fail on.
sass="$("$archbench" --version | awk '/SASS:/ {$1=""; print}')"
ptx="$("$archbench" --version | awk '/PTX:/ {$1=""; print}')"
missing=""
if ! echo "$sass $ptx" | grep -q '_75'; then missing="T4"
elif ! echo "$ptx" | grep -q 'compute_' && ! echo "$sass" | grep -q 'sm_12'; then missing="RTX 5090"; fi
if [ -n "$missing" ]; then
  python3 - "$work/covered.json" "$work/uncovered.json" "$missing" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["devices"].append({"label": "gpu-uncovered", "device": sys.argv[3], "driver": "580", "variant": "x86_64"})
json.dump(f, open(sys.argv[2], "w"))
PY
  bash "$src/ci/github/inspect_gate.sh" "$work/uncovered.json" "$work/dist" > "$work/gate_fail.out" 2>&1; rc=$?
  [ "$rc" -eq 1 ] || bad "inspect gate with a $missing in the fleet: exit $rc, want 1 (this build has no image for it)"
  grep -q '::error::variant x86_64' "$work/gate_fail.out" || bad "the gate does not name the variant"
else
  echo "note: this build ($sass |$ptx) serves every device the gate knows; the failing-gate check is skipped"
fi

# The GPU leg on a runner without a usable GPU, on any machine: an empty CUDA_VISIBLE_DEVICES
# hides the GPUs of a GPU machine too (the real leg would repeat the full run that baseline.gate
# makes; the leg past its doctor step is ci.gpu_leg_logic's).
mkdir -p "$work/bin" && ln -s "$archbench" "$work/bin/archbench"
CUDA_VISIBLE_DEVICES= bash "$src/ci/github/gpu_leg.sh" "$work/bin" "$work/leg" test-runner > "$work/leg.out" 2>&1; rc=$?
[ "$rc" -eq 3 ] || { bad "GPU leg without a usable GPU: exit $rc, want 3"; cat "$work/leg.out"; }
grep -q '"status": "no-device"' "$work/leg/status.json" || bad "status.json: $(cat "$work/leg/status.json")"
[ -s "$work/leg/doctor.json" ] || bad "no doctor.json"
grep -q '::error::runner test-runner: no usable GPU' "$work/leg.out" || bad "the leg does not say why"
[ ! -e "$work/leg/run.json" ] || bad "the leg ran archbench run without a GPU"

# The merge job on two legs (fixture results: a real H200 run, reduced, and a synthesized H100).
mkdir -p "$work/legs/fleet-gpu-h200" "$work/legs/fleet-gpu-h100"
cp "$src/suites/fixtures/fleet/results_h200.json" "$work/legs/fleet-gpu-h200/run.json"
cp "$src/suites/fixtures/fleet/results_h100_sm80build.json" "$work/legs/fleet-gpu-h100/run.json"
echo '{"label": "gpu-h200", "status": "passed", "exit": 0, "message": "ok"}' > "$work/legs/fleet-gpu-h200/status.json"
cp "$work/leg/status.json" "$work/legs/fleet-gpu-h100/status.json" 2>/dev/null || true
: > "$work/summary.md"
bash "$src/ci/github/merge.sh" "$archbench" "$work/legs" "$work/fleet" "$work/summary.md" > "$work/merge.out" 2>&1 \
  || { bad "merge.sh"; cat "$work/merge.out"; }
for f in fleet.json fleet.md fleet.html; do [ -s "$work/fleet/$f" ] || bad "merge.sh wrote no $f"; done
grep -q '## archbench fleet report' "$work/summary.md" || bad "no report in the job summary"
grep -q '### Legs' "$work/summary.md" || bad "no leg list in the job summary"
[ "$(stat -c %s "$work/summary.md")" -le 1000000 ] || bad "job summary over the limit"
mkdir -p "$work/nolegs"
bash "$src/ci/github/merge.sh" "$archbench" "$work/nolegs" "$work/fleet2" "$work/summary2.md" > /dev/null 2>&1 \
  && bad "merge.sh with no results must fail"

# The history step of the merge job: both legs recorded (a first night: nothing to step, exit 0), added again
# idempotently; a third leg that recorded nothing fails the step, naming it. Skipped in a build without SQLite.
if "$archbench" history list --store "$work/probe.sqlite" 2>&1 | grep -q "built without SQLite"; then
  echo "note: no history step check: this archbench has no SQLite"
else
  rh="$src/ci/github/record_history.sh"
  bash "$rh" "$archbench" "$work/legs" "$work/history.sqlite" "$work/history" "$work/summary.md" > "$work/rh.out" 2>&1 \
    || { bad "record_history.sh"; cat "$work/rh.out"; }
  grep -q "2 new run(s) of 2" "$work/rh.out" || bad "record_history.sh did not add both legs: $(cat "$work/rh.out")"
  for f in history.json history.md trend.html; do [ -s "$work/history/$f" ] || bad "record_history.sh wrote no $f"; done
  grep -q '## archbench history check' "$work/summary.md" || bad "no history check in the job summary"
  mkdir -p "$work/legs/fleet-gpu-a100"
  echo '{"label": "gpu-a100", "status": "no-device", "exit": 3, "message": "no usable GPU"}' > "$work/legs/fleet-gpu-a100/status.json"
  bash "$rh" "$archbench" "$work/legs" "$work/history.sqlite" "$work/history" > "$work/rh2.out" 2>&1 \
    && bad "a leg that recorded nothing must fail the history step"
  grep -q "::error::leg fleet-gpu-a100 recorded nothing" "$work/rh2.out" || bad "the empty leg is not named: $(cat "$work/rh2.out")"
  grep -q "0 new run(s) of 2" "$work/rh2.out" || bad "the other legs were not recorded (idempotently): $(cat "$work/rh2.out")"
  rm -rf "$work/legs/fleet-gpu-a100"
fi
[ "$fails" -eq 0 ] && echo PASS
exit $(( fails > 0 ))
