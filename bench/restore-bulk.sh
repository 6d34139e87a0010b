#!/usr/bin/env bash
# Restore through the bulk path [B1] beside each database's own bulk load of the same rows and index
# entries (issue 30), in one run (method in BENCHMARKS.md, "Restore beside the native bulk load"):
#   bench/restore-bulk.sh [ITEMS] [--runs N] [--only sqlite|postgres|cassandra] [--fsync-on]
# ITEMS defaults to 1,000,000 (items of ~400 bytes, key pk S + sk N, one GSI holding every item).
#   SQLite: SqliteRestoreBulkBench: RestoreLoad begin/write(500)/complete vs plain JDBC, one transaction,
#     reused prepared INSERTs into relations made as the restored ones are, rows encoded before the clock.
#   PostgreSQL (embedded, the tests' server, fsync off; --fsync-on turns fsync, synchronous_commit and
#     full_page_writes on for the run): PgRestoreBulkBench: the restore vs COPY (pk, sk, item) FROM
#     STDIN + INSERT ... SELECT of the GSI entries into tables LIKE the restored relations INCLUDING ALL.
#   Cassandra (the tests' node, started by the bench; ITEMS / 10 items): CassandraRestoreBulkBench: the restore
#     vs plain asynchronous INSERTs of the same rows and index entries, as many in flight (DSBulk's way).
# Each prints every round and "restore / native" = native seconds / restore seconds (>= 0.5 is the target).
# Nothing is asserted. The machine may be shared: read the load averages printed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

items=1000000
runs=3
only=""
durable=false
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --fsync-on) durable=true ;;
    --only) only="$2"; shift ;;
    [0-9]*) items="$1" ;;
    *) echo "usage: bench/restore-bulk.sh [ITEMS] [--runs N] [--only sqlite|postgres|cassandra] [--fsync-on]" >&2; exit 2 ;;
  esac
  shift
done
work="$root/target/bench"
mkdir -p "$work"
echo "bench/restore-bulk.sh at git $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- '*/src' || echo ' (sources modified)'), $(date -u '+%Y-%m-%d %H:%M UTC'); $items items, $runs rounds; nproc $(nproc); load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1

# module CLASS: builds the module (tests compiled, not run) and runs CLASS from its test classes.
run() {
  local module="$1" class="$2"; shift 2
  mvn -q -B -Dstyle.color=never -DskipTests -pl "$module" -am package dependency:build-classpath \
    -Dmdep.outputFile=target/restore-bench-classpath.txt -DincludeScope=test 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
  java -Xmx6g -XX:+UseParallelGC -Dstillpoint.test.pg.durable="$durable" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn "-Dot.epg.working-dir=$work/embedded-pg" \
    -cp "$module/target/test-classes:$module/target/classes:$(cat "$module/target/restore-bench-classpath.txt")" \
    "$class" "$@"
}

[ -n "$only" ] && [ "$only" != sqlite ] || { echo; echo "######## SQLite"; run adapters-jooq-sqlite dev.stillpoint.adapters.sqlite.restore.SqliteRestoreBulkBench "$items" "$runs" "$work"; }
[ -n "$only" ] && [ "$only" != postgres ] || { echo; echo "######## PostgreSQL"; run adapters-jooq-postgres dev.stillpoint.adapters.postgres.restore.PgRestoreBulkBench "$items" "$runs"; }
# The node's files go under the module's target/, where the build wrote its classpath file.
[ -n "$only" ] && [ "$only" != cassandra ] || { echo; echo "######## Cassandra"; STILLPOINT_BUILD_DIR="$root/adapters-cassandra/target" run adapters-cassandra dev.stillpoint.adapters.cassandra.CassandraRestoreBulkBench "$((items / 10))" "$runs"; }
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
