#!/usr/bin/env bash
# A/B run of the proposed changes in this folder, without touching the sources. Copies
# SqliteSnapshots.java and Lease.java out of the tree into target/bench/proposals, applies the
# patches to copies, compiles them against the jars of the last benchmark build (target/bench/lib)
# and puts them first on the classpath.
#   A: the sources as they are   B: + patch 1   C: + patches 1 and 2
# (Both patches were applied to the sources on 2026-11-29 after the A/B recorded in
# bench/results/2026-11-29-proposals-ab.txt; on such sources it says so and compares nothing.)
# Each variant runs the throughput part of the benchmark (warm-up + 3 runs) on the kept database.
# Needs a kept run first:  bench/sqlite-snapshot.sh --keep --no-export
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
work="$root/target/bench"
lib="$work/lib"
db="$work/sqlite-snapshot.db"
[ -f "$db" ] && [ -f "$lib/SOURCES.sha1" ] || { echo "run bench/sqlite-snapshot.sh --keep first" >&2; exit 2; }
now="$(find domain/src/main ports/src/main adapters-jooq-sqlite/src/main -type f -print0 | sort -z | xargs -0 sha1sum | sha1sum)"
[ "$now" = "$(cat "$lib/SOURCES.sha1")" ] || { echo "the sources changed since target/bench/lib was built: run bench/sqlite-snapshot.sh --keep again" >&2; exit 2; }
relation="$(sqlite3 "$db" "SELECT relation_name FROM sp_tables WHERE table_name = 'bench'")"
case "$relation" in d_[a-z0-9]*) ;; *) echo "no bench table in $db" >&2; exit 2 ;; esac
items="$(sqlite3 "$db" "SELECT count(*) FROM \"$relation\"")"

out="$work/proposals"
rm -rf "$out"; mkdir -p "$out"
cp_lib="$(ls "$lib"/*.jar | tr '\n' ':')$(tr -d '\n' < adapters-jooq-sqlite/target/bench-classpath.txt)"

# variant_dirs PATCH FILE NAME: compiles FILE as it is (NAME-0) and with the patch (NAME-1).
# A patch that no longer applies (already in the sources, or the code moved on) is reported, and
# both sides of it use the file as it is.
applied=0
variant_dirs() {
  local patch="$root/bench/proposals/$1" file="$2" name="$3"
  for v in 0 1; do
    mkdir -p "$out/src-$name-$v"
    cp --parents "$file" "$out/src-$name-$v/"
  done
  if (cd "$out/src-$name-1" && patch --dry-run --batch -s -p1 < "$patch" >/dev/null 2>&1); then
    (cd "$out/src-$name-1" && patch --batch -s -p1 < "$patch")
    echo "$1: applied to a copy"
    applied=$((applied + 1))
  else
    echo "$1: does not apply (already in the sources, or the code changed): not A/B'd"
  fi
  for v in 0 1; do
    javac -nowarn -d "$out/$name-$v" -cp "$cp_lib" "$out/src-$name-$v/$file"
  done
}
variant_dirs 1-keyset-keys-from-last-row.patch \
  adapters-jooq-sqlite/src/main/java/dev/stillpoint/adapters/sqlite/engine/SqliteSnapshots.java keys
variant_dirs 2-lease-one-transition-per-page.patch \
  core/src/main/java/dev/stillpoint/core/snapshot/Lease.java lease
if [ "$applied" = 0 ]; then
  echo "nothing to compare: neither patch applies to the current sources"
  exit 0
fi

for v in A B C; do
  case $v in
    A) pre="$out/keys-0:$out/lease-0:" label="as the sources are" ;;
    B) pre="$out/keys-1:$out/lease-0:" label="patch 1" ;;
    C) pre="$out/keys-1:$out/lease-1:" label="patches 1 + 2" ;;
  esac
  echo "== variant $v ($label)"
  java -Xmx1g -Dorg.jooq.no-logo=true -Dorg.jooq.no-tips=true -Dslf4j.internal.verbosity=ERROR \
    -cp "$pre$work/bench-classes:$cp_lib" dev.stillpoint.adapters.sqlite.engine.SnapshotBench \
    --db "$db" --items "$items" --reuse --throughput-only > "$out/variant-$v.log" 2>&1 \
    || { tail -20 "$out/variant-$v.log"; exit 1; }
  grep -E "^verified|^load average before|^\((a|b|c)\) |^  \((b|c)\)/\(a\)" "$out/variant-$v.log"
done
