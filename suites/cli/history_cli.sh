#!/usr/bin/env bash
# `archbench history` end to end without a GPU: a synthetic history (tools/history/synthetic_history.py, from a
# real H200 run file) recorded by add, listed, checked: the injected steps found (evaluate_detection.py), a clean
# history passing; merge idempotent; 8 concurrent writer processes losing no run; kill -9 during add leaving a
# consistent store; a corrupt store and a foreign file refused, unchanged; a runner's baseline rebuilt from its
# runs since the last step and preferred by compare; a schema-1 store upgraded. Exit 77 in a build without SQLite.
# Usage: history_cli.sh ARCHBENCH SOURCE_DIR WORK_DIR
set -uo pipefail
archbench="$1"; src="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"
source "$(dirname "$0")/checks.sh"
source "$here/history_runs.sh"

"$archbench" history list --store "$work/probe.sqlite" > "$work/probe.txt" 2>&1
grep -q "built without SQLite" "$work/probe.txt" && { echo "SKIP: $(cat "$work/probe.txt")"; exit 77; }

# Steps injected into 20% of 8 runners x 40 operators over 40 nights: found, at the right run or next to it.
gen "$work/steps" --runners 8 --nights 40 --operators 40 --noise 0.01 --seed 2 > /dev/null
start=$(date +%s%N)
"$archbench" history add $(runs_of "$work/steps") --store "$work/steps.sqlite" > "$work/add.txt" || bad "add"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "history add: 320 runs of 40 operators in $ms ms ($(( ms * 1000 / 320 )) us per run)"
grep -q "320 new run(s) of 320" "$work/add.txt" || bad "add: $(cat "$work/add.txt")"
"$archbench" history add $(runs_of "$work/steps") --store "$work/steps.sqlite" | grep -q "0 new run(s) of 320" || bad "add twice"
"$archbench" history check --store "$work/steps.sqlite" --recent 40 --json "$work/check.json" > "$work/check.txt"
[ $? -eq 1 ] || bad "check with steps: not exit 1"
python3 "$src/tools/history/evaluate_detection.py" "$work/check.json" "$work/steps/truth.json" --tolerance 1 --min-recall 0.9 \
  || bad "detection rates"
awk 'length($0) > 120 { bad = 1 } END { exit bad }' "$work/check.txt" || bad "check output over 120 columns"
"$archbench" history list --store "$work/steps.sqlite" | grep -c "NVIDIA H200" | grep -qx 8 || bad "list: not 8 runners"

# 13 real runs on one H200 (suites/fixtures/history_h200): the norm family, the last 5 with the test-only
# slowdown knob on norm/layernorm* (ARCHBENCH_TEST_SLOWDOWN=0.08): every layernorm operator and nothing else
# stepped at run 9; the 8 A/A runs alone flag nothing.
"$archbench" history add "$src"/suites/fixtures/history_h200/run_*.json --store "$work/h200.sqlite" > /dev/null
"$archbench" history check --store "$work/h200.sqlite" --json "$work/h200.json" > "$work/h200.txt"; rc=$?
python3 - "$work/h200.json" "$rc" <<'PY' || bad "H200 history: $(cat "$work/h200.txt")"
import json, sys
steps = json.load(open(sys.argv[1]))["steps"]
ops = sorted(s["operator"] for s in steps)
assert sys.argv[2] == "1", "exit " + sys.argv[2]
assert len(ops) == 6 and all(o.startswith("norm/layernorm") for o in ops), ops
assert all(s["run"] == 9 and s["kind"] == "slower" for s in steps), steps
PY
"$archbench" history check --store "$work/h200.sqlite" --markdown "$work/h200.md" > /dev/null
grep -q '^| slower | `norm/layernorm/f16/M8192_N320` | GPU-9efd3f63 (NVIDIA H200) |' "$work/h200.md" && grep -q "\*\*FAIL\*\*" "$work/h200.md" \
  || bad "the Markdown summary: $(cat "$work/h200.md")"
"$archbench" history add "$src"/suites/fixtures/history_h200/run_0[1-8].json --store "$work/h200_aa.sqlite" > /dev/null
"$archbench" history check --store "$work/h200_aa.sqlite" > "$work/h200_aa.txt" || bad "H200 A/A: $(cat "$work/h200_aa.txt")"

# Baselines from the history: the runner's own, from its runs since the step (9-13). Run 13 against it is
# clean; against the baseline of the runs before the step (1-8) its layernorms are slower.
h200="$src/suites/fixtures/history_h200"
"$archbench" baseline update --from-history "$work/h200.sqlite" --dir "$work/bl" > "$work/bl.txt" || bad "from-history: $(cat "$work/bl.txt")"
ls "$work"/bl/nvidia-h200-cc90-140g@GPU-9efd3f63-*.json > /dev/null 2>&1 || bad "from-history wrote no runner baseline: $(ls "$work/bl")"
tr -s "\n " "  " < "$work/bl.txt" | grep -q "5 run(s) pooled, runs 9-13 of 13: since a slower step of norm/layernorm" || bad "from-history: $(cat "$work/bl.txt")"
"$archbench" compare --baseline "$work/bl" "$h200/run_13.json" > "$work/own.txt" || bad "run 13 against its runner's baseline: $(tail -3 "$work/own.txt")"
"$archbench" baseline update --dir "$work/model" $(for i in 01 02 03 04 05 06 07 08; do echo --from "$h200/run_$i.json"; done) > /dev/null
"$archbench" compare --baseline "$work/model" "$h200/run_13.json" > "$work/model.txt"; [ $? -eq 1 ] || bad "run 13 against the runs before the step"
cp "$work"/model/*.json "$work/bl/"  # both in one directory: the runner's own is the one compared
"$archbench" compare --baseline "$work/bl" "$h200/run_13.json" > /dev/null || bad "the runner's own baseline is not preferred"
# Too few runs since the last change point: nothing written, exit 1, saying why; --from with --from-history: usage.
"$archbench" history add "$h200"/run_0[1-3].json --store "$work/few.sqlite" > /dev/null
"$archbench" baseline update --from-history "$work/few.sqlite" --dir "$work/few" > "$work/few.txt"; rc=$?
[ $rc -eq 1 ] && tr -s "\n " "  " < "$work/few.txt" | grep -q "a baseline needs 5" && [ ! -d "$work/few" ] || bad "too few runs: exit $rc $(cat "$work/few.txt")"
"$archbench" baseline update --from-history "$work/few.sqlite" --from "$h200/run_01.json" > /dev/null 2>&1; [ $? -eq 2 ] || bad "--from with --from-history"
"$archbench" baseline update --from-history "$work/absent.sqlite" > "$work/absent.txt" 2>&1; [ $? -eq 5 ] || bad "an absent store: $(cat "$work/absent.txt")"
# A store of schema 1 (before runs kept their results) is upgraded when opened; its runs keep their medians.
python3 - "$work/v1.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("CREATE TABLE runs(id INTEGER PRIMARY KEY, digest TEXT NOT NULL UNIQUE, runner TEXT NOT NULL, host TEXT NOT NULL,"
                 " device_key TEXT NOT NULL, device_name TEXT NOT NULL, started_at TEXT NOT NULL, environment TEXT NOT NULL);"
                 "CREATE TABLE results(run INTEGER NOT NULL REFERENCES runs(id), operator TEXT NOT NULL, image TEXT NOT NULL,"
                 " failed INTEGER NOT NULL, median_ms REAL, PRIMARY KEY(run, operator)); PRAGMA user_version = 1;")
db.commit()
PY
"$archbench" history add "$h200"/run_0[1-5].json --store "$work/v1.sqlite" | grep -q "5 new run(s) of 5" || bad "add to a schema-1 store"
[ "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("pragma user_version").fetchone()[0])' "$work/v1.sqlite")" = 2 ] \
  || bad "the schema-1 store was not upgraded"

# No steps: a clean history passes.
gen "$work/clean" --runners 4 --nights 30 --operators 30 --steps 0 --seed 4 > /dev/null
"$archbench" history add $(runs_of "$work/clean") --store "$work/clean.sqlite" > /dev/null
"$archbench" history check --store "$work/clean.sqlite" --recent 30 > "$work/clean.txt" || bad "clean history: $(tail -3 "$work/clean.txt")"

# merge: idempotent.
"$archbench" history merge "$work/clean.sqlite" --store "$work/merged.sqlite" | grep -q "120 new run(s) of 120" || bad "merge"
"$archbench" history merge "$work/clean.sqlite" --store "$work/merged.sqlite" | grep -q "0 new run(s) of 120" || bad "merge twice"

# 8 writer processes at once on one store.
gen "$work/many" --runners 8 --nights 12 --operators 20 --steps 0 --seed 6 > /dev/null
for r in 0 1 2 3 4 5 6 7; do
  "$archbench" history add $(ls "$work/many"/r00${r}_*.json) --store "$work/many.sqlite" > "$work/w$r.txt" 2>&1 &
done
wait
n=$(python3 -c "import sqlite3; print(sqlite3.connect('$work/many.sqlite').execute('select count(*) from runs').fetchone()[0])")
[ "$n" -eq 96 ] || bad "8 concurrent writers: $n runs of 96 ($(cat "$work"/w*.txt | sort -u | head -3))"

# kill -9 during add: the store stays consistent and keeps what was committed.
gen "$work/big" --runners 1 --nights 200 --operators 30 --steps 0 --seed 8 > /dev/null
"$archbench" history add $(runs_of "$work/big") --store "$work/killed.sqlite" > /dev/null 2>&1 &
pid=$!; sleep 0.3; kill -9 "$pid" 2> /dev/null; wait "$pid" 2> /dev/null
python3 - "$work/killed.sqlite" <<'PY' || bad "after kill -9"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
runs = db.execute("select count(*) from runs").fetchone()[0]
orphans = db.execute("select count(*) from runs u where not exists (select 1 from results r where r.run = u.id)").fetchone()[0]
assert orphans == 0, "runs without results: %d" % orphans
print("after kill -9: integrity ok, %d whole runs kept" % runs)
PY
"$archbench" history add $(runs_of "$work/big") --store "$work/killed.sqlite" | grep -q "of 200" || bad "add after kill -9"

# A store without runs checks nothing: not a pass.
python3 -c "import shutil; shutil.copy('$work/clean.sqlite', '$work/emptied.sqlite')"
python3 -c "import sqlite3; db = sqlite3.connect('$work/emptied.sqlite'); db.execute('delete from results'); db.execute('delete from runs'); db.commit()"
"$archbench" history check --store "$work/emptied.sqlite" > "$work/emptied.txt"; [ $? -eq 1 ] && grep -q "nothing checked" "$work/emptied.txt" \
  || bad "an empty store: $(cat "$work/emptied.txt")"

# Bad stores: refused with the reason, exit 5, the file unchanged.
printf 'not a database at all\n' > "$work/corrupt.sqlite"
before=$(md5sum < "$work/corrupt.sqlite")
"$archbench" history check --store "$work/corrupt.sqlite" > "$work/corrupt.txt" 2>&1; rc=$?
[ $rc -eq 5 ] && tr -s "\n " "  " < "$work/corrupt.txt" | grep -q "not an archbench" || bad "corrupt store: exit $rc $(cat "$work/corrupt.txt")"
"$archbench" history add "$template" --store "$work/corrupt.sqlite" > /dev/null 2>&1; [ $? -eq 5 ] || bad "add to a corrupt store"
[ "$(md5sum < "$work/corrupt.sqlite")" = "$before" ] || bad "the corrupt store was changed"
"$archbench" history check --store "$work/absent.sqlite" > /dev/null 2>&1; [ $? -eq 5 ] || bad "an absent store"
[ ! -e "$work/absent.sqlite" ] || bad "check made a store"
"$archbench" history add "$work/corrupt.sqlite" --store "$work/x.sqlite" > "$work/notarun.txt" 2>&1; [ $? -eq 5 ] || bad "add of a non-run"

[ "$fails" -eq 0 ] && echo "history: all checks passed" || echo "history: $fails check(s) failed"
exit $(( fails > 0 ))
