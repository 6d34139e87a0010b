#!/usr/bin/env bash
# Restore of a large export on SQLite, beside the sqlite3 shell's .import of the same lines (issue 14):
#   bench/restore.sh [ITEMS] [--runs N]
# ITEMS defaults to 1,000,000. Builds the table and its export with bench/sqlite-snapshot.sh (kept in
# target/bench), then, N times (default 3): `./stillpoint restore` of that export into a fresh SQLite
# file (JVM start included; the full input check [E3] and the load), and `sqlite3 FILE .import` of the
# export's items.jsonl into a one-column table of a fresh file (the baseline: the same lines, no check,
# no key, no index). Prints both walls, items/s and the ratio; nothing is asserted.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

items=1000000
runs=3
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    [0-9]*) items="$1" ;;
    *) echo "usage: bench/restore.sh [ITEMS] [--runs N]" >&2; exit 2 ;;
  esac
  shift
done

work="$root/target/bench"
mkdir -p "$work"
out="$work/export"
if [ ! -s "$out/items.jsonl" ] || [ "$(wc -l < "$out/items.jsonl")" != "$items" ]; then
  echo "== building the $items-item table and its export (bench/sqlite-snapshot.sh --keep --runs 1)"
  bench/sqlite-snapshot.sh "$items" --keep --runs 1 > "$work/restore-setup.log" 2>&1 || { tail -20 "$work/restore-setup.log"; exit 1; }
fi
echo "== machine: nproc $(nproc); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "export: $(wc -l < "$out/items.jsonl") items, $(du -sh "$out/items.jsonl" | cut -f1)"
./stillpoint --help >/dev/null 2>&1 || { echo "the CLI does not build"; exit 1; }

TIMEFORMAT="%R"
for run in $(seq 1 "$runs"); do
  target="$work/restored-$run.db"
  rm -f "$target" "$target-wal" "$target-shm"
  restore_wall=$( { time ./stillpoint restore --from "$out" --sqlite "$target" --table restored </dev/null \
      > "$work/restore-$run.log" 2>&1 ; } 2>&1 ) || { echo "restore failed:"; tail -5 "$work/restore-$run.log"; exit 1; }
  base="$work/import-$run.db"
  rm -f "$base"
  # One column, a separator no JSON line holds (0x1F), one line per row: the shell's fastest load of these lines.
  import_wall=$( { time sqlite3 "$base" "CREATE TABLE items(item TEXT)" ".separator \"\\037\" \"\\n\"" \
      ".import $out/items.jsonl items" ; } 2>&1 )
  imported=$(sqlite3 "$base" "SELECT count(*) FROM items")
  restored=$(sqlite3 -readonly "$target" "SELECT count(*) FROM sp_tables WHERE table_name = 'restored' AND status = 'ACTIVE'")
  awk -v r="$run" -v n="$items" -v rw="$restore_wall" -v iw="$import_wall" -v imp="$imported" -v ok="$restored" 'BEGIN {
    printf "run %d: restore %.1f s (%.0f items/s, table ACTIVE: %s) | sqlite3 .import %.1f s (%.0f rows/s, %d rows) | restore/import wall %.1fx\n",
      r, rw, n / rw, (ok == 1 ? "yes" : "NO"), iw, n / iw, imp, rw / iw }'
  grep -h "items/s" "$work/restore-$run.log" | tail -1 | sed 's/^/  the CLI said: /'
  rm -f "$target" "$target-wal" "$target-shm" "$base"
done
