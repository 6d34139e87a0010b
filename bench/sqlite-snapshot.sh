#!/usr/bin/env bash
# The SQLite snapshot benchmark of issue 3, in one run (see BENCHMARKS.md):
#   bench/sqlite-snapshot.sh [ITEMS] [--keep] [--reuse] [--runs N] [--no-export] [--jfr] [--wait-load X]
# ITEMS defaults to 1,000,000. Builds adapters-jooq-sqlite and what it depends on (tests skipped),
# loads a table into target/bench/sqlite-snapshot.db, prints the figures, exports the table with
# `./stillpoint export` (timed, end to end), and deletes the database and the export unless --keep.
#   --reuse      keep using an already loaded database of the same size (implies --keep)
#   --jfr        record the run with Java Flight Recorder into target/bench/bench.jfr
#   --wait-load X  before the benchmark JVM starts, wait until the 1-minute load average is below X
#                (checked every 30 s, at most 10 min; then it measures anyway and says so)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

items=1000000
keep=0
reuse=0
export_run=1
runs=3
jfr=0
wait_load=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=1 ;;
    --reuse) reuse=1; keep=1 ;;
    --no-export) export_run=0 ;;
    --runs) runs="$2"; shift ;;
    --jfr) jfr=1 ;;
    --wait-load) wait_load="$2"; shift ;;
    [0-9]*) items="$1" ;;
    *) echo "usage: bench/sqlite-snapshot.sh [ITEMS] [--keep] [--reuse] [--runs N] [--no-export] [--jfr] [--wait-load X]" >&2; exit 2 ;;
  esac
  shift
done

work="$root/target/bench"
db="$work/sqlite-snapshot.db"
out="$work/export"
mkdir -p "$work"

cleanup() {
  if [ "$keep" = 0 ]; then
    rm -rf "$db" "$db-wal" "$db-shm" "$out"
  else
    echo "kept: $db (and the export, if any, in $out)"
  fi
}
trap cleanup EXIT

echo "== machine"
echo "nproc: $(nproc); $(free -g | awk '/^Mem:/ {print "memory: " $2 " GiB total, " $7 " GiB available"}')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1

echo "== sqlite3 shell"
if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "sqlite3 missing: installing Debian's package (apt-get install -y sqlite3)"
  if ! { apt-get install -y sqlite3 >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y sqlite3 >/dev/null 2>&1; }; }; then
    echo "sqlite3: not available (install failed); (d) is skipped"
  fi
fi
command -v sqlite3 >/dev/null 2>&1 && echo "sqlite3 $(sqlite3 -version | cut -d' ' -f1-2)" || true

echo "== build (mvn package, tests compiled, not run)"
# One reactor build of the adapter and the modules it needs, tests compiled but not run (the adapter's
# test scope needs properties' test jar, which -Dmaven.test.skip=true does not build: on a machine
# without an old copy in ~/.m2 the build failed); nothing is installed. The jars are then copied
# to target/bench/lib, so a build started meanwhile by someone else cannot swap classes under the
# running JVM. The bench class lives in the adapter's test sources (package ...engine, for
# ItemKeys and PageQueries) and is compiled here on its own against that classpath, with the
# benchmarks' shared support (items, heap watch, load check; JDK, domain and ports only) from properties/src/test/java.
main_sources=(domain/src/main item-json/src/main ports/src/main core/src/main sql-catalog/src/main adapters-jooq-sqlite/src/main)
src_digest() { find "${main_sources[@]}" -type f -print0 | sort -z | xargs -0 sha1sum | sha1sum; }
# A hand-applied mutant (mutation testing edits these sources in place, marking the line
# "MUTANT") must not be measured: wait for clean sources, and build again if they changed meanwhile.
mutants() { grep -rls "MUTANT" "${main_sources[@]}" 2>/dev/null | tr '\n' ' '; }
lib="$work/lib"
waited=0
for attempt in $(seq 1 30); do
  while [ -n "$(mutants)" ] && [ "$waited" -lt 600 ]; do
    [ "$waited" = 0 ] && echo "a hand-applied mutant ('MUTANT' marker) is in $(mutants): waiting (up to 10 min) for clean sources"
    sleep 10; waited=$((waited + 10))
  done
  before="$(src_digest)"
  mvn -q -B -Dstyle.color=never -DskipTests -pl adapters-jooq-sqlite -am package dependency:build-classpath \
    -Dmdep.outputFile=target/bench-classpath.txt -DincludeScope=runtime 2>&1 | sed 's/\x1b\[[0-9;]*m//g'  # (stray colour codes)
  rm -rf "$lib"; mkdir -p "$lib"
  cp adapters-jooq-sqlite/target/stillpoint-adapters-jooq-sqlite-*-SNAPSHOT.jar "$lib/"
  runtime_cp="$lib/$(basename adapters-jooq-sqlite/target/stillpoint-adapters-jooq-sqlite-*-SNAPSHOT.jar)"
  IFS=: read -r -a deps < adapters-jooq-sqlite/target/bench-classpath.txt || true  # no final newline
  for jar in "${deps[@]}"; do
    case "$jar" in
      "$root"/*) cp "$jar" "$lib/"; runtime_cp="$runtime_cp:$lib/$(basename "$jar")" ;;
      *) runtime_cp="$runtime_cp:$jar" ;;
    esac
  done
  if [ "$before" = "$(src_digest)" ] && [ -z "$(mutants)" ]; then
    break
  fi
  if [ "$waited" -ge 600 ]; then
    echo "WARNING: the main sources kept changing or carry a mutant ($(mutants)); measuring this build anyway"
    break
  fi
  echo "the main sources changed during the build, or carry a mutant (attempt $attempt): building again"
  sleep 10; waited=$((waited + 10))
done
src_digest > "$lib/SOURCES.sha1"
echo "built from main sources $(cut -c1-12 "$lib/SOURCES.sha1") (sha1 of domain, item-json, ports, core, sql-catalog, adapters-jooq-sqlite src/main)"
rm -rf "$work/bench-classes"
javac -nowarn -encoding UTF-8 --release 17 -d "$work/bench-classes" -cp "$runtime_cp" \
  -sourcepath properties/src/test/java -implicit:class \
  adapters-jooq-sqlite/src/test/java/dev/stillpoint/adapters/sqlite/engine/SnapshotBench.java
cp="$work/bench-classes:$runtime_cp"

jvm=(-Xmx1g -XX:+UseG1GC -Dorg.jooq.no-logo=true -Dorg.jooq.no-tips=true -Dslf4j.internal.verbosity=ERROR)
if [ "$jfr" = 1 ]; then
  jvm+=("-XX:StartFlightRecording=filename=$work/bench.jfr,settings=profile")
fi
args=(--items "$items" --db "$db" --runs "$runs")
[ "$reuse" = 1 ] && args+=(--reuse)

if [ -n "$wait_load" ]; then
  for i in $(seq 0 20); do
    load1="$(cut -d' ' -f1 /proc/loadavg)"
    if awk -v l="$load1" -v x="$wait_load" 'BEGIN { exit !(l < x) }'; then
      echo "load average (1 min) $load1 < $wait_load: measuring"; break
    fi
    if [ "$i" = 20 ]; then
      echo "load average (1 min) still $load1 after 10 min of waiting for < $wait_load: measuring anyway"; break
    fi
    echo "load average (1 min) $load1, waiting for < $wait_load ($((i * 30)) s so far)"
    sleep 30
  done
fi
echo "== benchmark"
java "${jvm[@]}" -cp "$cp" dev.stillpoint.adapters.sqlite.engine.SnapshotBench "${args[@]}"

if [ "$export_run" = 1 ]; then
  echo
  echo "== CLI export of the $items-item table, end to end"
  # ./stillpoint builds the CLI when any source is newer than its jar: build it first, and time
  # again if a source changed in between (its "building the CLI" line shows up in the log).
  if ! ./stillpoint --help >/dev/null 2>&1; then
    echo "export: not available (./stillpoint --help failed: the CLI does not build or run yet)"
  else
    TIMEFORMAT="export wall %R s (user %U s, sys %S s)"
    for attempt in 1 2 3; do
      rm -rf "$out"
      set +e
      { time ./stillpoint export --sqlite "$db" --table bench --out "$out" </dev/null >"$work/export.log" 2>&1 ; } 2>"$work/export.time"
      rc=$?
      set -e
      grep -q "building the CLI" "$work/export.log" || break
      echo "(the CLI was rebuilt inside the timing: timing again)"
    done
    cat "$work/export.time"
    if [ "$rc" != 0 ]; then
      echo "export: FAILED (exit $rc):"; tail -20 "$work/export.log"
    else
      cat "$work/export.log"
      data="$(find "$out" -type f ! -name manifest.json | head -1)"
      lines="$(wc -l < "$data")"
      echo "export: $(du -sh "$out" | cut -f1) in $out; $(basename "$data") has $lines lines"
      wall="$(sed -n 's/^export wall \([0-9.]*\) s.*/\1/p' "$work/export.time")"
      [ -n "$wall" ] && awk -v n="$items" -v t="$wall" 'BEGIN { printf "export: %.0f items/s end to end (JVM start included)\n", n / t }'
      if command -v sqlite3 >/dev/null 2>&1; then
        # The export path passes the stored text through: its data file is the stored rows in key order.
        rel="$(sqlite3 "$db" "SELECT relation_name FROM sp_tables WHERE account_id = '000000000000' AND table_name = 'bench'")"
        case "$rel" in d_[a-z0-9]*) ;; *) echo "unexpected relation name '$rel'"; exit 1 ;; esac
        stored="$(sqlite3 "$db" "SELECT item FROM \"$rel\" ORDER BY pk, sk" | sha256sum | cut -d' ' -f1)"
        exported="$(sha256sum < "$data" | cut -d' ' -f1)"
        if [ "$stored" = "$exported" ]; then
          echo "export: data file identical to the stored rows in key order (sha256 $stored)"
        else
          echo "export: data file DIFFERS from the stored rows in key order ($exported vs $stored)"
        fi
      fi
    fi
  fi
fi
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
