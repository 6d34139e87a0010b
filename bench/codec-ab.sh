#!/usr/bin/env bash
# A/B of the item JSON codecs (issue 13, part 3), see BENCHMARKS.md:
#   bench/codec-ab.sh [ROWS] [ROUNDS]      (defaults 200,000 rows, 5 rounds)
# A: the hand-written domain.item.ItemJson as it stood at commit a36cad8; B: the jackson-core
# streaming candidate of commit 0bd732a (item-json then; its package renamed to
# dev.stillpoint.itemjson.jackson here); C: item-json as the sources are now. A and B come from git
# history and are compiled into target/bench/codec-ab beside the current jars. All three decode
# and encode the snapshot benchmarks' rows (BenchItems).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rows="${1:-200000}"
rounds="${2:-5}"
hand_written=a36cad8
jackson=0bd732a
jackson_version=2.21.3
work="$root/target/bench/codec-ab"
rm -rf "$work"; mkdir -p "$work/src/dev/stillpoint/domain/item" "$work/src/dev/stillpoint/itemjson/jackson" "$work/classes"

echo "== machine"
echo "nproc: $(nproc); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
java -version 2>&1 | head -1
echo "== build (mvn package of item-json and domain, tests skipped; nothing installed)"
mvn -q -B -Dstyle.color=never -Dmaven.test.skip=true -pl item-json -am package 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
# B needs jackson-core, which the project no longer uses: fetched into the local repository.
mvn -q -B -Dstyle.color=never dependency:get -Dartifact="com.fasterxml.jackson.core:jackson-core:$jackson_version" 2>&1 | tail -3
jackson_jar="$HOME/.m2/repository/com/fasterxml/jackson/core/jackson-core/$jackson_version/jackson-core-$jackson_version.jar"
cp_jars="$(ls domain/target/stillpoint-domain-*-SNAPSHOT.jar):$(ls item-json/target/stillpoint-item-json-*-SNAPSHOT.jar):$jackson_jar"
git show "$hand_written:domain/src/main/java/dev/stillpoint/domain/item/ItemJson.java" \
  > "$work/src/dev/stillpoint/domain/item/ItemJson.java"
for f in $(git ls-tree --name-only "$jackson" item-json/src/main/java/dev/stillpoint/itemjson/); do
  case "$f" in *CatalogJson.java) continue ;; esac
  git show "$jackson:$f" | sed 's/^package dev\.stillpoint\.itemjson;/package dev.stillpoint.itemjson.jackson;/' \
    > "$work/src/dev/stillpoint/itemjson/jackson/$(basename "$f")"
done
echo "A: domain.item.ItemJson at $hand_written; B: item-json at $jackson (jackson-core $jackson_version);" \
     "C: item-json at $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- item-json/src/main || echo ' (modified)')"
javac -nowarn -encoding UTF-8 --release 17 -d "$work/classes" -cp "$cp_jars" \
  -sourcepath "$work/src:properties/src/test/java" -implicit:class \
  $(find "$work/src" -name '*.java') bench/codec/ItemJsonAb.java
echo "== A/B"
java -Xmx1g -XX:+UseG1GC -cp "$work/classes:$cp_jars" dev.stillpoint.bench.ItemJsonAb "$rows" "$rounds"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
