#!/usr/bin/env bash
# Issue 30's B3 targets (see BENCHMARKS.md, "export -j N and restore -j N"):
#   bench/export-jobs.sh [ITEMS] [--runs N] [--only sqlite|postgres]
# ITEMS defaults to 1,000,000 (BenchItems' ~400-byte items, pk S + sk N, one GSI). Through
# bench/common/library-bench.sh (cli built, tests compiled not run, nothing installed), compiles bench/jobs/ExportJobsBench with BenchItems
# from source against cli's test classpath, and runs it in target/bench. Per backend, run and N in 1, 2, 4:
# export -j N, then restore -j N of that export into a new table (check included), both through the library;
# prints each N's best run and its ratio against -j 1 of the same run (targets on PostgreSQL: export -j 2 and
# restore -j 2 >= 1.3x -j 1). On a shared machine run it under `nice -n 19` and with fewer items.
exec "$(dirname "${BASH_SOURCE[0]}")/common/library-bench.sh" export-jobs.sh 1000000 bench/jobs/ExportJobsBench.java ExportJobsBench "$@"
