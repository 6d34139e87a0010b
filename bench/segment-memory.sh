#!/usr/bin/env bash
# Issue 30's memory target [B2] (see BENCHMARKS.md, "Memory of a segmented snapshot"):
#   bench/segment-memory.sh [ITEMS] [--runs N] [--only sqlite|postgres]
# ITEMS defaults to 200,000 (BenchItems' ~400-byte items, pk S + sk N, one GSI). Through
# bench/common/library-bench.sh (cli built, tests compiled not run, nothing installed), compiles bench/segments/SegmentMemoryBench with
# BenchItems from source against cli's test classpath, and runs it in target/bench under ParallelGC. Per
# backend, run and N in 1, 2, 4: the heap live set an open snapshot of N segments holds, 2,000 items read from
# each, against N times N = 1's and against the table's size. On a shared machine run it under `nice -n 19`.
exec "$(dirname "${BASH_SOURCE[0]}")/common/library-bench.sh" segment-memory.sh 200000 bench/segments/SegmentMemoryBench.java SegmentMemoryBench "$@"
