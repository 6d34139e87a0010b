#!/usr/bin/env bash
# Issue 31's incremental export target (see BENCHMARKS.md, "Incremental export of 1% beside the full export"):
#   bench/incremental.sh [ITEMS] [--runs N] [--only sqlite|postgres]
# ITEMS defaults to 1,000,000 (BenchItems' ~400-byte items, pk S + sk N, one GSI). Through
# bench/common/library-bench.sh (cli built, tests compiled not run, nothing installed), compiles bench/incremental/IncrementalExportBench
# with BenchItems from source against cli's test classpath, and runs it in target/bench. Per backend and run:
# the full export (marker A), 1% of the keys overwritten, `export --since A`, both timed through the library's
# TableExport; prints "incremental / full" (target <= 0.05). Nothing is asserted but the window's count.
exec "$(dirname "${BASH_SOURCE[0]}")/common/library-bench.sh" incremental.sh 1000000 bench/incremental/IncrementalExportBench.java IncrementalExportBench "$@"
