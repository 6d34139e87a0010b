#!/usr/bin/env bash
# Restore of a large export on SQLite and on PostgreSQL, beside the sqlite3 shell's .import of the same
# lines and COPY FROM of the same rows (issue 14):
#   bench/restore.sh [ITEMS] [--runs N] [--only sqlite|postgres]
# ITEMS defaults to 1,000,000. Builds the table and its export with bench/sqlite-snapshot.sh (kept in
# target/bench), then, N times (default 3): `./stillpoint restore` of that export into a fresh SQLite
# file (JVM start included; the full input check [E3] and the load), and `sqlite3 FILE .import` of the
# export's items.jsonl into a one-column table of a fresh file (the baseline: the same lines, no check,
# no key, no index). Then PostgreSQL: an embedded PostgreSQL (io.zonky.test, the tests' server, but
# with fsync and synchronous_commit on, PostgreSQL's defaults) and N times, each in a fresh database,
# `./stillpoint restore --postgres` of the export (JVM start included) and COPY FROM of the restored
# relations' rows into tables made LIKE them INCLUDING ALL (the same rows, keys and indexes; no check;
# one statement per relation), both timed by PgRestoreBench (cli tests). Prints both walls, items/s and the ratio; nothing is asserted. The machine
# may be shared: run it under nice and read the load averages it prints.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

items=1000000
runs=3
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --only) only="$2"; shift ;;
    [0-9]*) items="$1" ;;
    *) echo "usage: bench/restore.sh [ITEMS] [--runs N] [--only sqlite|postgres]" >&2; exit 2 ;;
  esac
  shift
done

work="$root/target/bench"
mkdir -p "$work"
out="$work/export"
if [ ! -s "$out/items.jsonl" ] || [ "$(wc -l < "$out/items.jsonl")" != "$items" ]; then
  echo "== building the $items-item table and its export (bench/sqlite-snapshot.sh --keep --runs 1)"
  bench/sqlite-snapshot.sh "$items" --keep --runs 1 > "$work/restore-setup.log" 2>&1 || { tail -20 "$work/restore-setup.log"; exit 1; }
fi
echo "== machine: nproc $(nproc); load average at start: $(cut -d' ' -f1-3 /proc/loadavg); nice $(nice)"
echo "export: $(wc -l < "$out/items.jsonl") items, $(du -sh "$out/items.jsonl" | cut -f1)"
./stillpoint --help >/dev/null 2>&1 || { echo "the CLI does not build"; exit 1; }

TIMEFORMAT="%R"
[ "$only" = postgres ] || for run in $(seq 1 "$runs"); do
  target="$work/restored-$run.db"
  rm -f "$target" "$target-wal" "$target-shm"
  restore_wall=$( { time ./stillpoint restore --from "$out" --sqlite "$target" --table restored </dev/null \
      > "$work/restore-$run.log" 2>&1 ; } 2>&1 ) || { echo "restore failed:"; tail -5 "$work/restore-$run.log"; exit 1; }
  base="$work/import-$run.db"
  rm -f "$base"
  # One column, a separator no JSON line holds (0x1F), one line per row: the shell's fastest load of these lines.
  import_wall=$( { time sqlite3 "$base" "CREATE TABLE items(item TEXT)" ".separator \"\\037\" \"\\n\"" \
      ".import $out/items.jsonl items" ; } 2>&1 )
  imported=$(sqlite3 "$base" "SELECT count(*) FROM items")
  restored=$(sqlite3 -readonly "$target" "SELECT count(*) FROM sp_tables WHERE table_name = 'restored' AND status = 'ACTIVE'")
  awk -v r="$run" -v n="$items" -v rw="$restore_wall" -v iw="$import_wall" -v imp="$imported" -v ok="$restored" 'BEGIN {
    printf "run %d: restore %.1f s (%.0f items/s, table ACTIVE: %s) | sqlite3 .import %.1f s (%.0f rows/s, %d rows) | restore/import wall %.1fx\n",
      r, rw, n / rw, (ok == 1 ? "yes" : "NO"), iw, n / iw, imp, rw / iw }'
  grep -h "items/s" "$work/restore-$run.log" | tail -1 | sed 's/^/  the CLI said: /'
  rm -f "$target" "$target-wal" "$target-shm" "$base"
done

[ "$only" = sqlite ] && exit 0
echo "== PostgreSQL (build: mvn package, tests compiled, not run)"
mvn -q -o -B -Dstyle.color=never -DskipTests -pl cli -am package dependency:build-classpath \
  -Dmdep.outputFile=target/bench-classpath.txt -DincludeScope=test -DexcludeGroupIds=dev.stillpoint 2>&1 \
  | sed 's/\x1b\[[0-9;]*m//g'
# The CLI jar and the bench class are copied, so a build started meanwhile cannot swap them under the runs;
# the launcher runs the copy with ./stillpoint's options for restore.
lib="$work/pg-restore-lib"
rm -rf "$lib"; mkdir -p "$lib"
cp cli/target/stillpoint-cli.jar "$lib/"
cp -r cli/target/test-classes "$lib/test-classes"
printf '#!/bin/sh\nexec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "%s/stillpoint-cli.jar" "$@"\n' "$lib" > "$lib/stillpoint"
chmod +x "$lib/stillpoint"
echo "git: $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- '*/src/main' || echo ' (main sources modified)'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx512m -Dorg.slf4j.simpleLogger.defaultLogLevel=warn "-Dot.epg.working-dir=$work/embedded-pg" \
  -cp "$lib/test-classes:$lib/stillpoint-cli.jar:$(cat cli/target/bench-classpath.txt)" \
  dev.stillpoint.cli.PgRestoreBench "$out" "$runs" "$lib/stillpoint" "$work"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
