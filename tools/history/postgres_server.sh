#!/usr/bin/env bash
# A throwaway PostgreSQL server for a trial of the fleet store and for archbench's tests: a new cluster
# in DIR, listening only on a Unix socket in DIR, with a database `archbench`.
#   postgres_server.sh start DIR   # prints the connection string: host=DIR port=5432 dbname=archbench user=archbench
#   postgres_server.sh stop DIR
# Needs PostgreSQL's server binaries (Debian: apt-get install postgresql). As root it runs the server as the
# `postgres` user (initdb refuses root). Exit 77 when no server binaries are installed (ctest: skipped).
set -euo pipefail
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: postgres_server.sh start|stop DIR" >&2; exit 2; }
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
[ -n "$bin" ] && [ -x "$bin/initdb" ] || bin="$(dirname "$(command -v initdb 2>/dev/null || echo /none/initdb)")"
[ -x "$bin/initdb" ] || { echo "postgres_server.sh: no PostgreSQL server binaries (apt-get install postgresql)" >&2; exit 77; }
as=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres > /dev/null 2>&1 || { echo "postgres_server.sh: running as root and no postgres user to run the server as" >&2; exit 77; }
  as=(runuser -u postgres --)
fi
case "$cmd" in
  start)
    mkdir -p "$dir"
    [ ${#as[@]} -eq 0 ] || chown postgres "$dir"
    "${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U archbench --no-sync > "$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-k $dir -c listen_addresses= -c fsync=off -p 5432" start > /dev/null || { cat "$dir/server.log" >&2; exit 1; }
    "$bin/createdb" -h "$dir" -p 5432 -U archbench archbench
    echo "host=$dir port=5432 dbname=archbench user=archbench"
    ;;
  stop)
    [ -d "$dir/data" ] && "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop > /dev/null 2>&1 || true
    ;;
  *) echo "postgres_server.sh: unknown command $cmd (start or stop)" >&2; exit 2 ;;
esac
