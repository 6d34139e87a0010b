#!/usr/bin/env bash
# The write-path benchmark of issue 13 (see BENCHMARKS.md): PutItem and BatchWriteItem of 25 on
# SQLite, and PutItem on PostgreSQL, each against raw JDBC writing the same rows, in one run:
#   bench/put.sh [--rounds N] [--items N] [--warm N] [--pg-items N] [--no-postgres] [--no-sqlite] [--jfr]
# Builds adapters-jooq-sqlite and what it depends on (tests skipped, nothing installed), copies the
# jars to target/bench/put-lib, compiles PutBench (adapter test sources, package ...engine, for
# ItemKeys) with the shared BenchItems, runs it on target/bench/put.db and deletes the database.
# Then the same for PgPutBench on the test server (embedded PostgreSQL, or STILLPOINT_TEST_PG_URL's),
# in a scratch database it drops at the end.
#   --jfr   record with Java Flight Recorder (profile settings) into target/bench/put.jfr (SQLite) and
#           target/bench/pg-put.jfr (PostgreSQL) and print the top sampled frames of each
#           (jfr print --events jdk.ExecutionSample, top frame counted)
#   --no-sqlite  the PostgreSQL part only (still builds adapters-jooq-sqlite's modules)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

args=()
pg_args=()
jfr=0
postgres=1
sqlite=1
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) args+=("$1" "$2"); pg_args+=("$1" "$2"); shift ;;
    --items|--warm) args+=("$1" "$2"); shift ;;
    --pg-items) pg_args+=(--items "$2" --warm "$2"); shift ;;
    --no-postgres) postgres=0 ;;
    --no-sqlite) sqlite=0 ;;
    --jfr) jfr=1 ;;
    *) echo "usage: bench/put.sh [--rounds N] [--items N] [--warm N] [--pg-items N] [--no-postgres] [--no-sqlite] [--jfr]" >&2; exit 2 ;;
  esac
  shift
done

work="$root/target/bench"
db="$work/put.db"
mkdir -p "$work"
trap 'rm -f "$db" "$db-wal" "$db-shm"' EXIT

echo "== machine"
echo "nproc: $(nproc); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1

echo "== build (mvn package, tests skipped)"
mvn -q -B -Dstyle.color=never -DskipTests -pl adapters-jooq-sqlite -am package dependency:build-classpath \
  -Dmdep.outputFile=target/bench-classpath.txt -DincludeScope=runtime 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
if [ "$postgres" = 1 ]; then
  # Test scope for the server (embedded-postgres); the project's own modules from the reactor's jars.
  mvn -q -B -Dstyle.color=never -DskipTests -pl adapters-jooq-postgres -am package dependency:build-classpath \
    -Dmdep.outputFile=target/put-bench-classpath.txt -DincludeScope=test -DexcludeGroupIds=dev.stillpoint 2>&1 \
    | sed 's/\x1b\[[0-9;]*m//g'
fi
lib="$work/put-lib"
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
rm -rf "$work/put-classes"
javac -nowarn -encoding UTF-8 --release 17 -d "$work/put-classes" -cp "$runtime_cp" \
  -sourcepath properties/src/test/java -implicit:class \
  adapters-jooq-sqlite/src/test/java/dev/stillpoint/adapters/sqlite/engine/PutBench.java
cp="$work/put-classes:$runtime_cp"

# The most frequent top frames and first Stillpoint frames of a recording's execution samples.
top_frames() {
  echo "== top frames of $1 (jdk.ExecutionSample, top frame of each sample)"
  jfr print --events jdk.ExecutionSample "$1" \
    | awk '/stackTrace = \[/ { getline; sub(/^[ \t]+/, ""); sub(/[ \t]+line:.*/, ""); print }' \
    | sort | uniq -c | sort -rn | head -25
  echo "== top stillpoint frames of $1 (first dev.stillpoint frame of each sample)"
  jfr print --events jdk.ExecutionSample "$1" \
    | awk '/stackTrace = \[/ { inside = 1; found = 0; next }
           inside && /dev\.stillpoint/ && !found { line = $0; sub(/^[ \t]+/, "", line); sub(/[ \t]+line:.*/, "", line); print line; found = 1 }
           inside && /^[ \t]*\]/ { inside = 0 }' \
    | sort | uniq -c | sort -rn | head -25
}

jvm=(-Xmx1g -XX:+UseG1GC -Dorg.jooq.no-logo=true -Dorg.jooq.no-tips=true -Dslf4j.internal.verbosity=ERROR)
if [ "$sqlite" = 1 ]; then
  sqlite_jvm=("${jvm[@]}")
  if [ "$jfr" = 1 ]; then
    rm -f "$work/put.jfr"
    sqlite_jvm+=("-XX:StartFlightRecording=filename=$work/put.jfr,settings=profile")
  fi
  echo "== benchmark"
  java "${sqlite_jvm[@]}" -cp "$cp" dev.stillpoint.adapters.sqlite.engine.PutBench --db "$db" "${args[@]}"
  if [ "$jfr" = 1 ]; then
    top_frames "$work/put.jfr"
  fi
fi

if [ "$postgres" = 1 ]; then
  pg_cp=""
  for jar in domain/target/stillpoint-domain-*-SNAPSHOT.jar item-json/target/stillpoint-item-json-*-SNAPSHOT.jar \
             ports/target/stillpoint-ports-*-SNAPSHOT.jar core/target/stillpoint-core-*-SNAPSHOT.jar \
             sql-catalog/target/stillpoint-sql-catalog-*-SNAPSHOT.jar \
             adapters-jooq-postgres/target/stillpoint-adapters-jooq-postgres-*-SNAPSHOT.jar; do
    cp "$jar" "$lib/"
    pg_cp="${pg_cp:+$pg_cp:}$lib/$(basename "$jar")"
  done
  IFS=: read -r -a deps < adapters-jooq-postgres/target/put-bench-classpath.txt || true  # no final newline
  for jar in "${deps[@]}"; do
    pg_cp="$pg_cp:$jar"
  done
  rm -rf "$work/pg-put-classes"
  javac -nowarn -encoding UTF-8 --release 17 -d "$work/pg-put-classes" -cp "$pg_cp" \
    -sourcepath adapters-jooq-postgres/src/test/java:properties/src/test/java -implicit:class \
    adapters-jooq-postgres/src/test/java/dev/stillpoint/adapters/postgres/engine/PgPutBench.java
  pg_jvm=(-Xmx1g -XX:+UseG1GC -Dorg.jooq.no-logo=true -Dorg.jooq.no-tips=true -Dorg.slf4j.simpleLogger.defaultLogLevel=warn)
  if [ "$jfr" = 1 ]; then
    rm -f "$work/pg-put.jfr"
    pg_jvm+=("-XX:StartFlightRecording=filename=$work/pg-put.jfr,settings=profile")
  fi
  echo "== benchmark (PostgreSQL)"
  java "${pg_jvm[@]}" "-Dot.epg.working-dir=$work/embedded-pg" -cp "$work/pg-put-classes:$pg_cp" \
    dev.stillpoint.adapters.postgres.engine.PgPutBench "${pg_args[@]}"
  if [ "$jfr" = 1 ]; then
    top_frames "$work/pg-put.jfr"
  fi
fi
