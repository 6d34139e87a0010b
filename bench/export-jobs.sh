#!/usr/bin/env bash
# Issue 30's B3 targets (see BENCHMARKS.md, "export -j N and restore -j N"):
#   bench/export-jobs.sh [ITEMS] [--runs N] [--only sqlite|postgres]
# ITEMS defaults to 1,000,000 (BenchItems' ~400-byte items, pk S + sk N, one GSI). Builds cli and what it
# depends on (tests compiled, not run, nothing installed), compiles bench/jobs/ExportJobsBench with BenchItems
# from source against cli's test classpath, and runs it in target/bench. Per backend, run and N in 1, 2, 4:
# export -j N, then restore -j N of that export into a new table (check included), both through the library;
# prints each N's best run and its ratio against -j 1 of the same run (targets on PostgreSQL: export -j 2 and
# restore -j 2 >= 1.3x -j 1). On a shared machine run it under `nice -n 19` and with fewer items.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
items=1000000
runs=3
only=both
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --only) only="$2"; shift ;;
    [0-9]*) items="$1" ;;
    *) echo "usage: bench/export-jobs.sh [ITEMS] [--runs N] [--only sqlite|postgres]" >&2; exit 2 ;;
  esac
  shift
done
work="$root/target/bench"
classes="$work/jobs-classes"
mkdir -p "$work"; rm -rf "$classes"; mkdir -p "$classes"
echo "bench/export-jobs.sh at git $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- '*/src' || echo ' (sources modified)'), $(date -u '+%Y-%m-%d %H:%M UTC'); $items items, $runs runs; nproc $(nproc); load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1
mvn -q -B -Dstyle.color=never -DskipTests -pl cli -am package dependency:build-classpath \
  -Dmdep.outputFile=target/jobs-bench-classpath.txt -DincludeScope=test 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
cp="cli/target/classes:$(cat cli/target/jobs-bench-classpath.txt)"
javac -nowarn -encoding UTF-8 --release 17 -d "$classes" -cp "$cp" \
  properties/src/test/java/dev/stillpoint/properties/bench/BenchItems.java bench/common/BenchBackends.java bench/jobs/ExportJobsBench.java
java -Xmx4g -XX:+UseParallelGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$classes:$cp" \
  ExportJobsBench "$items" "$runs" "$work" "$only"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
