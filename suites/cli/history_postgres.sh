#!/usr/bin/env bash
# The history store on a real PostgreSQL server (started here by tools/history/postgres_server.sh, stopped on
# exit): the H200 history recorded and checked as on SQLite, with the same steps and the same baseline from it;
# add and merge idempotent; a merge from SQLite; 8 concurrent writer processes losing no run; kill -9 during add
# leaving whole runs only; a database holding other tables, and a store of a newer schema, refused and unchanged;
# no password in output.
# Exit 77 without PostgreSQL's server binaries or in a build without libpq.
# Usage: history_postgres.sh ARCHBENCH SOURCE_DIR WORK_DIR
set -uo pipefail
archbench="$1"; src="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"
server="$src/tools/history/postgres_server.sh"
source "$(dirname "$0")/checks.sh"
source "$here/history_runs.sh"

"$archbench" history list --store "host=$work dbname=probe" > "$work/probe.txt" 2>&1
grep -q "built without libpq" "$work/probe.txt" && { echo "SKIP: $(cat "$work/probe.txt")"; exit 77; }
pg="$(mktemp -d /tmp/archbench-pg.XXXXXX)"  # short: a Unix socket path has a length limit
trap '"$server" stop "$pg"; rm -rf "$pg"' EXIT
store="$("$server" start "$pg")"; rc=$?
[ $rc -eq 77 ] && { echo "SKIP: no PostgreSQL server binaries"; exit 77; }
[ $rc -eq 0 ] || { echo "FAIL: the server did not start"; exit 1; }
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
psql() { "$bin/psql" -X -q -t -A -h "$pg" -p 5432 -U archbench "$@"; }
echo "PostgreSQL server: $store"

# The 13 H200 runs: the same six layernorm steps at run 9 as from the SQLite store; added twice, kept once.
"$archbench" history add "$src"/suites/fixtures/history_h200/run_*.json --store "$store" | grep -q "13 new run(s) of 13" || bad "add"
"$archbench" history add "$src"/suites/fixtures/history_h200/run_*.json --store "$store" | grep -q "0 new run(s) of 13" || bad "add twice"
"$archbench" history check --store "$store" --json "$work/pg.json" > "$work/pg.txt"; [ $? -eq 1 ] || bad "check: not exit 1"
"$archbench" history add "$src"/suites/fixtures/history_h200/run_*.json --store "$work/h200.sqlite" > /dev/null
"$archbench" history check --store "$work/h200.sqlite" --json "$work/sqlite.json" > /dev/null
python3 - "$work/pg.json" "$work/sqlite.json" <<'PY' || bad "PostgreSQL and SQLite stores disagree"
import json, sys
pg, lite = (json.load(open(p))["steps"] for p in sys.argv[1:3])
assert len(pg) == 6 and pg == lite, (pg, lite)
PY

# Baselines from the history: the same runner baseline (runs 9-13) from PostgreSQL as from SQLite.
"$archbench" baseline update --from-history "$store" --dir "$work/bl_pg" > "$work/bl_pg.txt" || bad "from-history: $(cat "$work/bl_pg.txt")"
"$archbench" baseline update --from-history "$work/h200.sqlite" --dir "$work/bl_lite" > /dev/null || bad "from-history (SQLite)"
cmp -s "$work"/bl_pg/*@GPU-*.json "$work"/bl_lite/*@GPU-*.json || bad "the runner baselines from PostgreSQL and SQLite differ"
grep -q "password" "$work/bl_pg.txt" && bad "a password in the output"

# A store of schema 1 (operator names in results, no kept results) is upgraded when opened; its runs stay.
psql -c "create database v1" archbench
psql v1 > /dev/null <<'SQL'
CREATE TABLE archbench_schema(version INTEGER NOT NULL);
INSERT INTO archbench_schema VALUES (1);
CREATE TABLE runs(id BIGSERIAL PRIMARY KEY, digest TEXT NOT NULL UNIQUE, runner TEXT NOT NULL, host TEXT NOT NULL,
  device_key TEXT NOT NULL, device_name TEXT NOT NULL, started_at TEXT NOT NULL, environment TEXT NOT NULL);
CREATE TABLE results(run BIGINT NOT NULL REFERENCES runs(id), operator TEXT NOT NULL, image TEXT NOT NULL,
  failed BOOLEAN NOT NULL, median_ms DOUBLE PRECISION, PRIMARY KEY(run, operator));
CREATE INDEX runs_by_runner ON runs(runner, started_at, id);
INSERT INTO runs(digest, runner, host, device_key, device_name, started_at, environment)
  VALUES ('old', 'GPU-OLD', 'h', 'nvidia-h200-cc90-140g', 'NVIDIA H200', '2026-01-01T00:00:00Z', '{}');
INSERT INTO results SELECT id, 'norm/layernorm/f16/M8192_N320', 'sass', false, 0.0104 FROM runs WHERE digest = 'old';
SQL
v1="host=$pg port=5432 dbname=v1 user=archbench"
"$archbench" history add "$src"/suites/fixtures/history_h200/run_0[1-5].json --store "$v1" | grep -q "5 new run(s) of 5" || bad "add to a schema-1 store"
[ "$(psql -c "select max(version) from archbench_schema" v1)" = 2 ] || bad "the schema-1 store was not upgraded"
[ "$(psql -c "select count(*) from results r join runs u on u.id = r.run join operators o on o.id = r.operator where u.digest = 'old'" v1)" = 1 ] \
  || bad "the schema-1 run lost its result"
"$archbench" history list --store "$v1" | grep -q "GPU-OLD" || bad "the schema-1 run is not listed"

# merge from an SQLite store into PostgreSQL (and back): idempotent.
psql -c "create database merged" archbench
merged="host=$pg port=5432 dbname=merged user=archbench"
"$archbench" history merge "$work/h200.sqlite" --store "$merged" | grep -q "13 new run(s) of 13" || bad "merge into PostgreSQL"
"$archbench" history merge "$work/h200.sqlite" --store "$merged" | grep -q "0 new run(s) of 13" || bad "merge twice"
"$archbench" history merge "$merged" --store "$work/back.sqlite" | grep -q "13 new run(s) of 13" || bad "merge out of PostgreSQL"

# 8 writer processes at once, the first of them making the schema.
psql -c "create database many" archbench
many="postgresql://archbench@/many?host=$pg&port=5432"
gen "$work/many" --runners 8 --nights 12 --operators 20 --steps 0 --seed 6 > /dev/null
start=$(date +%s%N)
for r in 0 1 2 3 4 5 6 7; do
  "$archbench" history add $(ls "$work/many"/r00${r}_*.json) --store "$many" > "$work/w$r.txt" 2>&1 &
done
wait
ms=$(( ($(date +%s%N) - start) / 1000000 ))
n=$(psql -c "select count(*) from runs" many)
[ "$n" = 96 ] || bad "8 concurrent writers: $n runs of 96 ($(cat "$work"/w*.txt | sort -u | head -3))"
echo "8 concurrent writers: $n runs of 20 operators in $ms ms"

# kill -9 during add: only whole runs.
psql -c "create database killed" archbench
killed="host=$pg port=5432 dbname=killed user=archbench"
gen "$work/big" --runners 1 --nights 200 --operators 30 --steps 0 --seed 8 > /dev/null
"$archbench" history add $(runs_of "$work/big") --store "$killed" > /dev/null 2>&1 &
pid=$!; sleep 0.5; kill -9 "$pid" 2> /dev/null; wait "$pid" 2> /dev/null
orphans=$(psql -c "select count(*) from runs u where not exists (select 1 from results r where r.run = u.id)" killed)
partial=$(psql -c "select count(*) from (select run from results group by run having count(*) <> 30) x" killed)
[ "$orphans" = 0 ] && [ "$partial" = 0 ] || bad "after kill -9: $orphans runs without results, $partial partial"
"$archbench" history add $(runs_of "$work/big") --store "$killed" | grep -q "of 200" || bad "add after kill -9"

# Refused, unchanged: a database with other tables; a store of a newer schema; a database that does not exist.
psql -c "create database foreign_db" archbench
psql -c "create table customers(id int)" foreign_db
"$archbench" history add "$src"/suites/fixtures/history_h200/run_01.json --store "host=$pg port=5432 dbname=foreign_db user=archbench" \
  > "$work/foreign.txt" 2>&1; rc=$?
[ $rc -eq 5 ] && tr -s "\n " "  " < "$work/foreign.txt" | grep -q "no archbench history store" || bad "a foreign database: exit $rc $(cat "$work/foreign.txt")"
[ "$(psql -c "select count(*) from information_schema.tables where table_schema = 'public'" foreign_db)" = 1 ] \
  || bad "the foreign database was changed"
psql -c "update archbench_schema set version = 99" merged
before=$(psql -c "select count(*) from runs" merged)
"$archbench" history add "$src"/suites/fixtures/history_h200/run_01.json --store "$merged" > "$work/newer.txt" 2>&1; rc=$?
[ $rc -eq 5 ] && grep -q "schema 99" "$work/newer.txt" || bad "a newer schema: exit $rc $(cat "$work/newer.txt")"
[ "$(psql -c "select count(*) from runs" merged)" = "$before" ] || bad "the newer store was changed"
"$archbench" history check --store "host=$pg port=5432 dbname=absent user=archbench" > "$work/absent.txt" 2>&1
[ $? -eq 5 ] && tr -s "\n " "  " < "$work/absent.txt" | grep -q 'database "absent" does not exist'  || bad "an absent database: $(cat "$work/absent.txt")"
psql -c "create database empty_db" archbench
"$archbench" history check --store "host=$pg port=5432 dbname=empty_db user=archbench" > "$work/empty.txt" 2>&1
[ $? -eq 5 ] && tr -s "\n " "  " < "$work/empty.txt" | grep -q "no archbench history store there yet" || bad "check made a store: $(cat "$work/empty.txt")"
"$archbench" history add "$src"/suites/fixtures/history_h200/run_01.json \
  --store "host=$pg port=5432 dbname=archbench user=archbench password=hunter2" > "$work/pw.txt" 2>&1
grep -q hunter2 "$work/pw.txt" && bad "the password was printed: $(cat "$work/pw.txt")"

[ "$fails" -eq 0 ] && echo "history on PostgreSQL: all checks passed" || echo "history on PostgreSQL: $fails check(s) failed"
exit $(( fails > 0 ))
