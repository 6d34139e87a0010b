#!/usr/bin/env bash
# Every benchmark ratio of issue 13 in one run (method in BENCHMARKS.md, "One command"):
#   bench/run.sh [ITEMS] [--runs N] [--wait-load X] [--all-postgres]
# ITEMS defaults to 1,000,000; each scan runs --runs times (default 3) after a warm-up. Runs, in turn:
#   1. bench/sqlite-snapshot.sh ITEMS --keep: (a) raw JDBC scan, (b) stream as stored, (c) decoded
#      stream, heap at 100,000 and ITEMS, and `./stillpoint export` end to end (JVM start included);
#   2. the export's baseline on the same database: `sqlite3 DB "SELECT item ... ORDER BY pk, sk" > file`,
#      then sha256sum of the file and an fsync of it (sync FILE), timed together;
#   3. bench/postgres-snapshot.sh ITEMS --only throughput,heap (--all-postgres: every section):
#      (a), (b), (c), COPY through pgjdbc (d) and psql (e), heap;
#   4. bench/put.sh, where the tree has it (PutItem against raw JDBC), printed as it comes;
#   5. bench/restore-bulk.sh ITEMS --runs N: restore / native bulk load on SQLite and PostgreSQL (issue 30);
#   6. bench/export-jobs.sh ITEMS --runs N: export -j N and restore -j N at N = 1, 2, 4 (issue 30, B3);
#   7. bench/segment-memory.sh ITEMS --runs N: the heap an open snapshot of N segments holds (issue 30, B2);
#   8. bench/incremental.sh ITEMS --runs N: an incremental export of 1% beside the full export (issue 31).
# Then prints every ratio beside its target and whether it was met. All output is also kept in
# target/bench/run-<UTC time>.log. Nothing here is a test: no threshold fails the script.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

items=1000000
runs=3
wait_load=()
pg_only=(--only throughput,heap)
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --wait-load) wait_load=(--wait-load "$2"); shift ;;
    --all-postgres) pg_only=() ;;
    [0-9]*) items="$1" ;;
    *) echo "usage: bench/run.sh [ITEMS] [--runs N] [--wait-load X] [--all-postgres]" >&2; exit 2 ;;
  esac
  shift
done

work="$root/target/bench"
mkdir -p "$work"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
log="$work/run-$stamp.log"
sqlite_log="$work/run-$stamp-sqlite.log"
pg_log="$work/run-$stamp-postgres.log"
put_log="$work/run-$stamp-put.log"
db="$work/sqlite-snapshot.db"
baseline_file="$work/baseline-export.jsonl"
exec > >(tee "$log") 2>&1

echo "bench/run.sh at git $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- . ':!bench/results' || echo ' (tree modified)'), $(date -u '+%Y-%m-%d %H:%M UTC'); $items items, $runs runs per scan"

cleanup() { rm -rf "$db" "$db-wal" "$db-shm" "$baseline_file" "$work/export"; }
trap cleanup EXIT

echo; echo "######## 1. SQLite snapshot benchmark and CLI export"
bash bench/sqlite-snapshot.sh "$items" --runs "$runs" --keep ${wait_load[@]+"${wait_load[@]}"} 2>&1 | tee "$sqlite_log"

echo; echo "######## 2. export baseline: sqlite3 > file, sha256sum, fsync"
baseline=""
if command -v sqlite3 >/dev/null 2>&1 && [ -f "$db" ]; then
  rel="$(sqlite3 "$db" "SELECT relation_name FROM sp_tables WHERE account_id = '000000000000' AND table_name = 'bench'")"
  case "$rel" in d_[a-z0-9]*) ;; *) echo "unexpected relation name '$rel'"; exit 1 ;; esac
  best=""
  for i in $(seq 1 "$runs"); do
    rm -f "$baseline_file"
    start=$(date +%s.%N)
    sqlite3 "$db" "SELECT item FROM \"$rel\" ORDER BY pk, sk" > "$baseline_file"
    sum="$(sha256sum "$baseline_file" | cut -d' ' -f1)"
    sync "$baseline_file"
    end=$(date +%s.%N)
    t="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')"
    echo "baseline run $i: $t s (sha256 $sum; load average $(cut -d' ' -f1-3 /proc/loadavg))"
    best="$(awk -v x="$t" -v b="$best" 'BEGIN { print (b == "" || x < b) ? x : b }')"
  done
  baseline="$best"
else
  echo "baseline: not available (no sqlite3 shell or no kept database)"
fi
rm -f "$db" "$db-wal" "$db-shm" "$baseline_file"; rm -rf "$work/export"

echo; echo "######## 3. PostgreSQL snapshot benchmark"
bash bench/postgres-snapshot.sh "$items" --runs "$runs" ${pg_only[@]+"${pg_only[@]}"} ${wait_load[@]+"${wait_load[@]}"} 2>&1 | tee "$pg_log"

if [ -f bench/put.sh ]; then
  echo; echo "######## 4. PutItem benchmark (bench/put.sh)"
  bash bench/put.sh 2>&1 | tee "$put_log"
else
  echo; echo "######## 4. PutItem benchmark: bench/put.sh is not in this tree (not run)"
fi

restore_log="$work/run-$stamp-restore.log"
echo; echo "######## 5. Restore beside the native bulk load (bench/restore-bulk.sh, issue 30 B1)"
bash bench/restore-bulk.sh "$items" --runs "$runs" 2>&1 | tee "$restore_log"

jobs_log="$work/run-$stamp-jobs.log"
echo; echo "######## 6. export -j N and restore -j N (bench/export-jobs.sh, issue 30 B3)"
bash bench/export-jobs.sh "$items" --runs "$runs" 2>&1 | tee "$jobs_log"

segments_log="$work/run-$stamp-segments.log"
echo; echo "######## 7. Heap of an open segmented snapshot (bench/segment-memory.sh, issue 30 B2)"
bash bench/segment-memory.sh "$items" --runs "$runs" 2>&1 | tee "$segments_log"

incremental_log="$work/run-$stamp-incremental.log"
echo; echo "######## 8. Incremental export of 1% beside the full export (bench/incremental.sh, issue 31)"
bash bench/incremental.sh "$items" --runs "$runs" 2>&1 | tee "$incremental_log"

# ratio LOG LABEL: "best-wall median-wall best-cpu" of the ratio line whose label starts with LABEL.
ratio() { grep -F -- "  $2" "$1" | head -1 | awk '{ n = NF; for (i = 1; i <= NF; i++) if ($i ~ /^target$/) { n = i - 1; break } print $(n-2), $(n-1), $n }'; }
# verdict VALUE OP TARGET -> MET / MISSED
verdict() { awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN { ok = (op == ">=") ? (v >= t) : (v <= t); print ok ? "MET" : "MISSED" }'; }
row() { # row WHAT "best median cpu" OP TARGET
  local what="$1" vals="$2" op="$3" target="$4"
  if [ -z "$vals" ]; then printf "  %-46s %s\n" "$what" "not measured"; return; fi
  read -r best median cpu <<< "$vals"
  printf "  %-46s best wall %5s  median wall %5s  best cpu %5s   target %s %s: %s (best wall), %s (median wall), %s (cpu)\n" \
    "$what" "$best" "$median" "$cpu" "$op" "$target" "$(verdict "$best" "$op" "$target")" \
    "$(verdict "$median" "$op" "$target")" "$(verdict "$cpu" "$op" "$target")"
}
# heap LOG: the largest "peak after-GC" above baseline in the -Xmx1g drains, and whether every -Xmx64m child completed.
heap() {
  local max children
  max="$(grep -E '^  (json|item)\(\) +[0-9,]+ items: baseline' "$1" | sed -n 's/.*peak after-GC + *\([0-9.]*\) MiB.*/\1/p' | sort -g | tail -1)"
  children="$(grep -c 'items with -Xmx64m: completed' "$1" || true)"
  echo "${max:-?} ${children:-0}"
}

echo; echo "######## ratios and targets (issue 13; ratios of items/s, so higher is faster)"
echo "SQLite ($items items, $runs runs per scan; see $sqlite_log):"
row "(c)/(a) decoded stream / raw JDBC scan" "$(ratio "$sqlite_log" "(c)/(a)")" ">=" 0.5
row "(b)/(a) stream as stored / raw JDBC scan" "$(ratio "$sqlite_log" "(b)/(a)")" ">=" 0.85
read -r hmax hchildren <<< "$(heap "$sqlite_log")"
printf "  %-46s largest live set (peak after GC) %s MiB above baseline at 100,000 and %s items; -Xmx64m children completed: %s of 2   target flat, < 64 MiB: %s\n" \
  "heap while streaming" "$hmax" "$items" "$hchildren" "$( [ "$hchildren" = 2 ] && [ "$(verdict "${hmax:-999}" "<=" 64)" = MET ] && echo MET || echo MISSED)"
export_wall="$(sed -n 's/^export wall \([0-9.]*\) s.*/\1/p' "$sqlite_log" | head -1)"
if [ -n "$export_wall" ] && [ -n "$baseline" ]; then
  x="$(awk -v e="$export_wall" -v b="$baseline" 'BEGIN { printf "%.2f", e / b }')"
  printf "  %-46s export %s s / baseline %s s (best of %s) = %sx   target <= 2.0x: %s\n" \
    "export end to end, JVM start included" "$export_wall" "$baseline" "$runs" "$x" "$(verdict "$x" "<=" 2.0)"
else
  printf "  %-46s not measured (export %s, baseline %s)\n" "export end to end" "${export_wall:-none}" "${baseline:-none}"
fi
echo "PostgreSQL ($items items; see $pg_log):"
row "(c)/(a) decoded stream / raw JDBC scan" "$(ratio "$pg_log" "(c)/(a)")" ">=" 0.5
row "(b)/(a) stream as stored / raw JDBC scan" "$(ratio "$pg_log" "(b)/(a) stream / raw JDBC")" ">=" 0.85
row "(b)/(d) stream / COPY through pgjdbc" "$(ratio "$pg_log" "(b)/(d)")" ">=" 1.0
read -r hmax hchildren <<< "$(heap "$pg_log")"
printf "  %-46s largest live set (peak after GC) %s MiB above baseline at 100,000 and %s items; -Xmx64m children completed: %s of 2   target flat, < 64 MiB: %s\n" \
  "heap while streaming" "$hmax" "$items" "$hchildren" "$( [ "$hchildren" = 2 ] && [ "$(verdict "${hmax:-999}" "<=" 64)" = MET ] && echo MET || echo MISSED)"
if [ -f "$put_log" ]; then
  echo "PutItem (bench/put.sh; its own ratio lines):"
  grep -iE 'ratio|target' "$put_log" | sed 's/^/  /' || echo "  (no ratio lines found)"
else
  echo "PutItem: not measured here (no bench/put.sh in this tree)"
fi
echo "all output: $log"
echo "Restore beside the native bulk load (issue 30 B1; see $restore_log):"
grep -h "^restore / native bulk load" "$restore_log" | sed 's/^/  /' || echo "  not measured"
echo "export -j N and restore -j N (issue 30 B3; see $jobs_log):"
grep -hE "^(SQLite|PostgreSQL).* -j [0-9] \(best|^targets:" "$jobs_log" | sed 's/^/  /' || echo "  not measured"
echo "Heap of an open segmented snapshot (issue 30 B2, target: N x (N=1) near 1.00; see $segments_log):"
grep -hE "N=[0-9] \(median|holds .* of it" "$segments_log" | sed 's/^/  /' || echo "  not measured"
echo "Incremental export of 1% / the full export (issue 31; see $incremental_log):"
grep -h "^target .*incremental" "$incremental_log" | sed 's/^/  /' || echo "  not measured"
