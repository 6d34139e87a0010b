import dev.stillpoint.ports.in.ItemStream;
import dev.stillpoint.ports.in.SegmentedSnapshot;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.ports.in.StoredKeys;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;

/**
 * Issue 30's memory target [B2]: the heap live set of an open segmented snapshot does not grow with N beyond
 * N pages. {@code SegmentMemoryBench ITEMS RUNS WORK_DIR sqlite|postgres|both}.
 *
 * <p>Per backend: the bench table (BenchItems' ~400-byte items, one GSI) is loaded once; per run and N in 1, 2,
 * 4, after full collections the heap in use is read (the baseline), a snapshot of N segments is opened and
 * {@value #READ} items read from each segment (several of PostgreSQL's 500-row cursor fetches), then after
 * full collections the heap in use is read again with every segment open: the difference is the live set the
 * open snapshot holds. Prints each N's median difference over the runs (a pool's or poller's thread allocating between two readings moves single readings), per segment, and against N times
 * N = 1's, and against the table's size (what a snapshot holding its items would keep). Run with
 * {@code -XX:+UseParallelGC}, whose System.gc() is a full, compacting collection.
 */
public final class SegmentMemoryBench {

    private static final int[] SEGMENTS = {1, 2, 4};
    private static final int READ = 2_000;

    private SegmentMemoryBench() {
    }

    public static void main(String[] args) throws Exception {
        int items = Integer.parseInt(args[0]);
        int runs = Integer.parseInt(args[1]);
        Path work = Path.of(args[2]);
        String which = args.length > 3 ? args[3] : "both";
        BenchBackends.each(work, "segmem", which, (backend, storage) -> bench(backend, storage, items, runs));
    }

    private static void bench(String backend, Storage storage, int items, int runs) throws Exception {
        System.out.printf("%n== %s: %,d items, a snapshot of N segments open, %,d items read from each; load average %s%n",
                backend, items, READ, BenchBackends.loadAverage());
        BenchBackends.loadTable(storage, items);
        long[][] held = new long[SEGMENTS.length][runs];
        long itemBytes = 0;
        for (int run = 0; run <= runs; run++) {
            for (int s = 0; s < SEGMENTS.length; s++) {
                int n = SEGMENTS[s];
                long before = liveHeap();
                long live;
                long read = 0;
                try (SegmentedSnapshot snapshot = storage.snapshots().openTableSnapshot(BenchBackends.ACCOUNT,
                        BenchBackends.TABLE, StoredKeys.OMITTED, n)) {
                    for (ItemStream segment : snapshot.segments()) {
                        for (int i = 0; i < READ && segment.hasNext(); i++) {
                            itemBytes = Math.max(itemBytes, dev.stillpoint.itemjson.ItemJson.encode(segment.next().item()).length());
                            read++;
                        }
                    }
                    live = liveHeap() - before;
                    if (read != (long) n * READ) {
                        throw new IllegalStateException(n + " segments gave " + read + " items, not " + n * READ);
                    }
                }
                if (run > 0) {
                    held[s][run - 1] = live;
                }
                System.out.printf("%s N=%d: live set held by the open snapshot %,d KiB (load average %s)%n",
                        run == 0 ? "warm-up" : "run " + run, n, live / 1024, BenchBackends.loadAverage());
            }
        }
        long[] median = new long[SEGMENTS.length];
        for (int s = 0; s < SEGMENTS.length; s++) {
            long[] sorted = held[s].clone();
            java.util.Arrays.sort(sorted);
            median[s] = sorted[runs / 2];
        }
        for (int s = 0; s < SEGMENTS.length; s++) {
            System.out.printf("%s N=%d (median of %d): %,d KiB, %,d KiB a segment, %.2f of N x (N=1)%n", backend,
                    SEGMENTS[s], runs, median[s] / 1024, median[s] / SEGMENTS[s] / 1024,
                    (double) median[s] / (SEGMENTS[s] * (double) median[0]));
        }
        System.out.printf("%s: the table is about %,d KiB as item JSON (%,d items of up to %,d bytes); N=4 holds %.3f of it%n",
                backend, (long) items * itemBytes / 1024, items, itemBytes, median[SEGMENTS.length - 1] / ((double) items * itemBytes));
    }

    /** The heap in use after full collections (ParallelGC's System.gc() compacts): the live set, near enough. */
    private static long liveHeap() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
