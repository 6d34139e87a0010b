#!/usr/bin/env bash
# Issue 30's memory target [B2] (see BENCHMARKS.md, "Memory of a segmented snapshot"):
#   bench/segment-memory.sh [ITEMS] [--runs N] [--only sqlite|postgres]
# ITEMS defaults to 200,000 (BenchItems' ~400-byte items, pk S + sk N, one GSI). Builds cli and what it
# depends on (tests compiled, not run, nothing installed), compiles bench/segments/SegmentMemoryBench with
# BenchItems from source against cli's test classpath, and runs it in target/bench under ParallelGC. Per
# backend, run and N in 1, 2, 4: the heap live set an open snapshot of N segments holds, 2,000 items read from
# each, against N times N = 1's and against the table's size. On a shared machine run it under `nice -n 19`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
items=200000
runs=3
only=both
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --only) only="$2"; shift ;;
    [0-9]*) items="$1" ;;
    *) echo "usage: bench/segment-memory.sh [ITEMS] [--runs N] [--only sqlite|postgres]" >&2; exit 2 ;;
  esac
  shift
done
work="$root/target/bench"
classes="$work/segmem-classes"
mkdir -p "$work"; rm -rf "$classes"; mkdir -p "$classes"
echo "bench/segment-memory.sh at git $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- '*/src' || echo ' (sources modified)'), $(date -u '+%Y-%m-%d %H:%M UTC'); $items items, $runs runs; nproc $(nproc); load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1
mvn -q -B -Dstyle.color=never -DskipTests -pl cli -am package dependency:build-classpath \
  -Dmdep.outputFile=target/segmem-bench-classpath.txt -DincludeScope=test 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
cp="cli/target/classes:$(cat cli/target/segmem-bench-classpath.txt)"
javac -nowarn -encoding UTF-8 --release 17 -d "$classes" -cp "$cp" \
  properties/src/test/java/dev/stillpoint/properties/bench/BenchItems.java bench/common/BenchBackends.java bench/segments/SegmentMemoryBench.java
java -Xmx4g -XX:+UseParallelGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$classes:$cp" \
  SegmentMemoryBench "$items" "$runs" "$work" "$only"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
