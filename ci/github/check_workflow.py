#!/usr/bin/env python3
"""Lint of ci/github/nightly.yml against what archbench's nightly needs (a parse and structural
check; actionlint, when installed, checks GitHub's schema too).

Usage: check_workflow.py WORKFLOW FLEET_JSON
Checks: triggers (schedule + workflow_dispatch, no pull_request*), jobs and their needs, matrices
from ci/fleet.json via the plan job, fail-fast false and timeouts, GPU legs guarded to trusted
refs on self-hosted runners, unique artifact names, the merge job running always and writing the
job summary, and that every script the workflow calls exists. Uses python3-yaml when present,
else a line-based fallback that checks the same keys as text. Exit 0 ok, 1 with each problem.
"""
import json, os, re, sys

problems = []
def need(cond, msg):
    if not cond:
        problems.append(msg)

def check_parsed(wf, root):
    on = wf.get("on", wf.get(True))  # PyYAML reads the key `on` as the boolean True
    need(isinstance(on, dict), "no triggers")
    on = on or {}
    need("schedule" in on and on["schedule"] and "cron" in on["schedule"][0], "no schedule trigger with a cron")
    need("workflow_dispatch" in on, "no workflow_dispatch trigger")
    need(not any(k.startswith("pull_request") for k in on), "pull_request triggers would run fork code on GPU runners")
    jobs = wf.get("jobs", {})
    need(set(jobs) >= {"plan", "build", "inspect", "gpu", "merge"}, f"jobs {sorted(jobs)} lack plan/build/inspect/gpu/merge")
    def needs(j):
        n = jobs.get(j, {}).get("needs", [])
        return [n] if isinstance(n, str) else n
    need("plan" in needs("build"), "build must need plan")
    need("build" in needs("inspect"), "inspect must need build")
    need("inspect" in needs("gpu") and "plan" in needs("gpu"), "gpu must need plan and inspect (no GPU before the image gate)")
    need("gpu" in needs("merge"), "merge must need gpu")
    need(str(jobs.get("merge", {}).get("if", "")).startswith("always()"), "merge must run always()")
    for name in ("build", "gpu"):
        s = jobs.get(name, {}).get("strategy", {})
        need(s.get("fail-fast") is False, f"{name}: fail-fast must be false")
        need("fromJSON(needs.plan.outputs." in str(s.get("matrix", "")), f"{name}: matrix must come from the plan job (ci/fleet.json)")
    for name, job in jobs.items():
        need(isinstance(job.get("timeout-minutes"), int), f"{name}: no timeout-minutes")
        runs_on = job.get("runs-on")
        gpu = name == "gpu"
        need(not gpu or (isinstance(runs_on, list) and "self-hosted" in runs_on and any("matrix.label" in str(r) for r in runs_on)),
             "gpu: runs-on must be [self-hosted, matrix.label]")
        need(gpu or "self-hosted" not in str(runs_on), f"{name}: only the gpu job may use self-hosted runners")
    guard = str(jobs.get("gpu", {}).get("if", ""))
    need("pull_request" in guard and "default_branch" in guard, "gpu: the if: must refuse pull requests and non-default refs")
    names = []
    for name, job in jobs.items():
        for step in job.get("steps", []):
            uses = step.get("uses", "")
            if uses.startswith("actions/upload-artifact"):
                art = str(step.get("with", {}).get("name", ""))
                names.append((name, art))
                if name in ("build", "gpu"):
                    need("${{ matrix." in art, f"{name}: artifact name {art!r} is not unique per matrix leg")
                if name == "gpu":
                    need(step.get("if") == "always()", "gpu: the leg's artifact must upload always()")
                    need("run_attempt" in art, "gpu: artifact names must include the run attempt (artifacts v4 are immutable)")
            for script in re.findall(r"ci/github/[\w.]+", str(step.get("run", ""))):
                need(os.path.exists(os.path.join(root, script)), f"{name}: calls {script}, which does not exist")
    need(len({a for _, a in names}) == len(names), f"artifact names repeat: {names}")
    runs = " ".join(str(s.get("run", "")) for j in jobs.values() for s in j.get("steps", []))
    for what in ("gpu_leg.sh", "inspect_gate.sh", "merge.sh", "record_history.sh", "build.sh", "GITHUB_STEP_SUMMARY",
                 "fleet_matrix.py"):
        need(what in runs, f"no step runs {what}")

def check_text(text, root):
    # Fallback without PyYAML: the same facts as text.
    for pat, msg in [(r"(?m)^on:", "no triggers"), (r"(?m)^\s+schedule:\s*$", "no schedule"), (r"cron:", "no cron"),
                     (r"(?m)^\s+workflow_dispatch:", "no workflow_dispatch"),
                     (r"(?m)^\s{2}plan:", "no plan job"), (r"(?m)^\s{2}build:", "no build job"), (r"(?m)^\s{2}inspect:", "no inspect job"),
                     (r"(?m)^\s{2}gpu:", "no gpu job"), (r"(?m)^\s{2}merge:", "no merge job"),
                     (r"needs: \[plan, inspect\]", "gpu must need plan and inspect"), (r"if: always\(\)", "merge must run always()"),
                     (r"runs-on: \[self-hosted, \"\$\{\{ matrix.label \}\}\"\]", "gpu runs-on"), (r"GITHUB_STEP_SUMMARY", "no job summary")]:
        need(re.search(pat, text), msg)
    need(not re.search(r"(?m)^\s+pull_request", text), "pull_request trigger")
    need(text.count("fail-fast: false") >= 2, "fail-fast: false missing")
    need(text.count("timeout-minutes:") >= 5, "timeout-minutes missing")
    for script in set(re.findall(r"ci/github/[\w.]+", text)):
        need(os.path.exists(os.path.join(root, script)), f"calls {script}, which does not exist")

def main():
    wf_path, fleet_path = sys.argv[1], sys.argv[2]
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    text = open(wf_path).read()
    try:
        import yaml
    except ImportError:
        yaml = None
    if os.environ.get("ARCHBENCH_NO_YAML"):  # exercise the fallback in tests
        yaml = None
    if yaml:
        check_parsed(yaml.safe_load(text), root)
        mode = "parsed with PyYAML"
    else:
        check_text(text, root)
        mode = "text fallback (no PyYAML)"
    fleet = json.load(open(fleet_path))
    need(all(d.get("variant") in fleet.get("variants", {}) for d in fleet["devices"]), "a fleet device names an unknown variant")
    need("archbench-x86_64" in text, "the merge job downloads a variant that is not built")
    for p in problems:
        print("FAIL:", p)
    print(f"{wf_path}: {mode}: {'ok' if not problems else str(len(problems)) + ' problem(s)'}")
    sys.exit(1 if problems else 0)

if __name__ == "__main__":
    main()
