#!/usr/bin/env bash
# The shared body of the library benches over BenchBackends (export-jobs.sh, incremental.sh, segment-memory.sh):
#   bench/common/library-bench.sh SCRIPT_NAME DEFAULT_ITEMS SOURCE CLASS [ITEMS] [--runs N] [--only sqlite|postgres]
# Builds cli and what it depends on (tests compiled, not run, nothing installed), compiles SOURCE with BenchItems
# and BenchBackends against cli's test classpath, and runs CLASS ITEMS RUNS target/bench sqlite|postgres|both
# under ParallelGC, printing the commit, the time and the load first and the load last.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
name="$1" items="$2" source="$3" class="$4"
shift 4
runs=3
only=both
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --only) only="$2"; shift ;;
    [0-9]*) items="$1" ;;
    *) echo "usage: bench/$name [ITEMS] [--runs N] [--only sqlite|postgres]" >&2; exit 2 ;;
  esac
  shift
done
work="$root/target/bench"
classes="$work/$class-classes"
mkdir -p "$work"; rm -rf "$classes"; mkdir -p "$classes"
echo "bench/$name at git $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- '*/src' bench || echo ' (sources modified)'), $(date -u '+%Y-%m-%d %H:%M UTC'); $items items, $runs runs; nproc $(nproc); load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1
mvn -q -B -Dstyle.color=never -DskipTests -pl cli -am package dependency:build-classpath \
  -Dmdep.outputFile="target/$class-classpath.txt" -DincludeScope=test 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
cp="cli/target/classes:$(cat "cli/target/$class-classpath.txt")"
javac -nowarn -encoding UTF-8 --release 17 -d "$classes" -cp "$cp" \
  properties/src/test/java/dev/stillpoint/properties/bench/BenchItems.java bench/common/BenchBackends.java "$source"
java -Xmx4g -XX:+UseParallelGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$classes:$cp" \
  "$class" "$items" "$runs" "$work" "$only"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
