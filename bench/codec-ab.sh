#!/usr/bin/env bash
# A/B of the item JSON codecs (issue 13, part 3), see BENCHMARKS.md:
#   bench/codec-ab.sh [ROWS] [ROUNDS]      (defaults 200,000 rows, 5 rounds)
# A is the hand-written domain.item.ItemJson as it stood at commit a36cad8 (taken from git history,
# compiled into target/bench/codec-ab beside the current domain jar); B is item-json's jackson-core
# codec as the sources are now. Both decode and encode the snapshot benchmarks' rows (BenchItems).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rows="${1:-200000}"
rounds="${2:-5}"
old_commit=a36cad8
work="$root/target/bench/codec-ab"
rm -rf "$work"; mkdir -p "$work/old-src/dev/stillpoint/domain/item" "$work/classes"

echo "== machine"
echo "nproc: $(nproc); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1
echo "== build (mvn package of item-json and domain, tests skipped; nothing installed)"
mvn -q -B -Dstyle.color=never -Dmaven.test.skip=true -pl item-json -am package dependency:build-classpath \
  -Dmdep.outputFile=target/bench-classpath.txt -DincludeScope=runtime 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
cp_jars="$(ls domain/target/stillpoint-domain-*-SNAPSHOT.jar):$(ls item-json/target/stillpoint-item-json-*-SNAPSHOT.jar)"
cp_jars="$cp_jars:$(tr -d '\n' < item-json/target/bench-classpath.txt | tr ':' '\n' | grep -v '/domain/target/' | paste -sd:)"
git show "$old_commit:domain/src/main/java/dev/stillpoint/domain/item/ItemJson.java" \
  > "$work/old-src/dev/stillpoint/domain/item/ItemJson.java"
echo "A: domain.item.ItemJson from $old_commit; B: item-json at $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- item-json/src/main || echo ' (modified)')"
javac -nowarn -encoding UTF-8 --release 17 -d "$work/classes" -cp "$cp_jars" \
  -sourcepath "$work/old-src:properties/src/test/java" -implicit:class \
  "$work/old-src/dev/stillpoint/domain/item/ItemJson.java" bench/codec/ItemJsonAb.java
echo "== A/B"
java -Xmx1g -XX:+UseG1GC -cp "$work/classes:$cp_jars" dev.stillpoint.bench.ItemJsonAb "$rows" "$rounds"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
