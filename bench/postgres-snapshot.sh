#!/usr/bin/env bash
# The PostgreSQL benchmark of issue 4, in one run (see BENCHMARKS.md):
#   bench/postgres-snapshot.sh [ITEMS] [--runs N] [--races N] [--drop-samples N] [--put-seconds N]
#                              [--only SECTIONS] [--jfr] [--wait-load X]
# ITEMS defaults to 1,000,000. Builds adapters-jooq-postgres and what it depends on (tests skipped),
# starts the test server (embedded PostgreSQL 16 from io.zonky.test, or the server
# STILLPOINT_TEST_PG_URL names, as the tests do), loads the table with COPY into scratch databases,
# prints the figures, and drops the scratch databases (and stops the embedded server) at the end.
#   --only S     a comma list of throughput,heap,drops,p9,puts,races (load and verify always run)
#   --jfr        record the run with Java Flight Recorder into target/bench/pg-bench.jfr
#   --wait-load X  before the benchmark JVM starts, wait until the 1-minute load average is below X
#                (checked every 30 s, at most 10 min; then it measures anyway and says so)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

items=1000000
jfr=0
wait_load=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs|--races|--drop-samples|--put-seconds|--only) args+=("$1" "$2"); shift ;;
    --jfr) jfr=1 ;;
    --wait-load) wait_load="$2"; shift ;;
    [0-9]*) items="$1" ;;
    *) echo "usage: bench/postgres-snapshot.sh [ITEMS] [--runs N] [--races N] [--drop-samples N] [--put-seconds N] [--only S] [--jfr] [--wait-load X]" >&2; exit 2 ;;
  esac
  shift
done

work="$root/target/bench"
mkdir -p "$work"

echo "== machine"
echo "nproc: $(nproc); $(free -g | awk '/^Mem:/ {print "memory: " $2 " GiB total, " $7 " GiB available"}')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1
if command -v psql >/dev/null 2>&1; then psql --version; else echo "psql: not installed ((e) is skipped)"; fi

echo "== build (mvn package, tests compiled, not run)"
# One reactor build of the adapter and the modules it needs, tests compiled but not run (the adapter's
# test scope needs properties' test jar, which -Dmaven.test.skip=true does not build: on a machine
# without an old copy in ~/.m2 the build failed); nothing is installed.
# The jars are copied to target/bench/lib, so a build started meanwhile by someone else cannot swap
# classes under the running JVM. The bench class and the test support it uses (testing.PgServer,
# PgDatabases, Sessions, Tables, Orphans) are compiled here on their own against that classpath.
main_sources=(domain/src/main item-json/src/main ports/src/main core/src/main sql-catalog/src/main adapters-jooq-postgres/src/main)
src_digest() { find "${main_sources[@]}" -type f -print0 | sort -z | xargs -0 sha1sum | sha1sum; }
# A hand-applied mutant (mutation testing edits sources in place, marking the line "MUTANT") must
# not be measured: wait for clean sources, and build again if they changed meanwhile.
mutants() { grep -rls "MUTANT" "${main_sources[@]}" 2>/dev/null | tr '\n' ' '; }
lib="$work/pg-lib"
waited=0
for attempt in $(seq 1 30); do
  while [ -n "$(mutants)" ] && [ "$waited" -lt 600 ]; do
    [ "$waited" = 0 ] && echo "a hand-applied mutant ('MUTANT' marker) is in $(mutants): waiting (up to 10 min) for clean sources"
    sleep 10; waited=$((waited + 10))
  done
  before="$(src_digest)"
  # Test scope for the server (embedded-postgres), opentest4j (PgServer) and slf4j-simple; the
  # project's own modules come from the reactor's jars, never from ~/.m2.
  mvn -q -B -Dstyle.color=never -DskipTests -pl adapters-jooq-postgres -am package dependency:build-classpath \
    -Dmdep.outputFile=target/bench-classpath.txt -DincludeScope=test -DexcludeGroupIds=dev.stillpoint 2>&1 \
    | sed 's/\x1b\[[0-9;]*m//g'
  rm -rf "$lib"; mkdir -p "$lib"
  runtime_cp=""
  for jar in domain/target/stillpoint-domain-*-SNAPSHOT.jar item-json/target/stillpoint-item-json-*-SNAPSHOT.jar ports/target/stillpoint-ports-*-SNAPSHOT.jar \
             core/target/stillpoint-core-*-SNAPSHOT.jar \
             sql-catalog/target/stillpoint-sql-catalog-*-SNAPSHOT.jar adapters-jooq-postgres/target/stillpoint-adapters-jooq-postgres-*-SNAPSHOT.jar; do
    cp "$jar" "$lib/"
    runtime_cp="${runtime_cp:+$runtime_cp:}$lib/$(basename "$jar")"
  done
  IFS=: read -r -a deps < adapters-jooq-postgres/target/bench-classpath.txt || true  # no final newline
  for jar in "${deps[@]}"; do
    runtime_cp="$runtime_cp:$jar"
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
echo "built from main sources $(cut -c1-12 "$lib/SOURCES.sha1") (sha1 of domain, item-json, ports, core, sql-catalog, adapters-jooq-postgres src/main)"
echo "git: $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- "${main_sources[@]}" || echo ' (main sources modified)')"
rm -rf "$work/pg-bench-classes"
javac -nowarn -encoding UTF-8 --release 17 -d "$work/pg-bench-classes" -cp "$runtime_cp" \
  -sourcepath adapters-jooq-postgres/src/test/java:properties/src/test/java -implicit:class \
  adapters-jooq-postgres/src/test/java/dev/stillpoint/adapters/postgres/engine/PgSnapshotBench.java
cp="$work/pg-bench-classes:$runtime_cp"

jvm=(-Xmx1g -XX:+UseG1GC -Dorg.jooq.no-logo=true -Dorg.jooq.no-tips=true -Dorg.slf4j.simpleLogger.defaultLogLevel=warn
     "-Dot.epg.working-dir=$work/embedded-pg")
if [ "$jfr" = 1 ]; then
  jvm+=("-XX:StartFlightRecording=filename=$work/pg-bench.jfr,settings=profile")
fi

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
java "${jvm[@]}" -cp "$cp" dev.stillpoint.adapters.postgres.engine.PgSnapshotBench --items "$items" ${args[@]+"${args[@]}"}
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
