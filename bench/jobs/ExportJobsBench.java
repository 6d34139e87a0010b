import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.backup.TableRestore;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.properties.bench.BenchItems;
import java.nio.file.Path;

/**
 * Issue 30's B3 targets: {@code export -j N} and {@code restore -j N} at N = 1, 2, 4 on one table, in one run:
 * {@code ExportJobsBench ITEMS RUNS WORK_DIR sqlite|postgres|both}.
 *
 * <p>Per backend: the table (pk S, sk N, one GSI on email, BenchItems' ~400-byte items) is loaded once through
 * the restore's bulk port; per run and N, the export at -j N is timed ({@code TableExport.to(dir).segments(N)}),
 * then the restore of that export into a new table at -j N ({@code TableRestore.from(dir).jobs(N)}), the check
 * included, and the table deleted. Both through the library, the CLI's path without the JVM start. A first
 * round warms up and is left out. Prints each run's seconds and, per N, the best run's ratio against -j 1 of the
 * same run (targets on PostgreSQL: export -j 2 and restore -j 2 >= 1.3x -j 1). Checks that every export and
 * restore holds ITEMS items. PostgreSQL: embedded, fsync and synchronous_commit on, shared layout, pool 10
 * (so at most 5 segments or writers).
 */
public final class ExportJobsBench {

    private static final String ACCOUNT = BenchBackends.ACCOUNT;
    private static final String TABLE = BenchBackends.TABLE;
    private static final int[] JOBS = {1, 2, 4};

    private ExportJobsBench() {
    }

    public static void main(String[] args) throws Exception {
        int items = Integer.parseInt(args[0]);
        int runs = Integer.parseInt(args[1]);
        Path work = Path.of(args[2]);
        String which = args.length > 3 ? args[3] : "both";
        BenchBackends.each(work, "jobs", which, (backend, storage) -> bench(backend, storage, items, runs, work));
    }

    private static void bench(String backend, Storage storage, int items, int runs, Path work) throws Exception {
        System.out.printf("%n== %s: %,d items, export and restore at -j 1, 2, 4; load average %s%n", backend, items,
                BenchBackends.loadAverage());
        long loadStart = System.nanoTime();
        BenchBackends.loadTable(storage, items);
        System.out.printf("loaded (bulk restore) in %.1f s%n", (System.nanoTime() - loadStart) / 1e9);
        double[] bestExport = new double[JOBS.length];
        double[] bestRestore = new double[JOBS.length];
        java.util.Arrays.fill(bestExport, Double.MAX_VALUE);
        java.util.Arrays.fill(bestRestore, Double.MAX_VALUE);
        // Round 0 warms the JIT and the caches up and is left out.
        for (int run = 0; run <= runs; run++) {
            for (int j = 0; j < JOBS.length; j++) {
                int n = JOBS[j];
                Path dir = work.resolve("jobs-export-" + n);
                BenchBackends.deleteTree(dir);
                long t0 = System.nanoTime();
                ExportResult exported = TableExport.to(dir).segments(n).run(storage, ACCOUNT, TABLE);
                double exportSeconds = (System.nanoTime() - t0) / 1e9;
                long t1 = System.nanoTime();
                TableRestore.Result restored = TableRestore.from(dir).jobs(n).run(storage, ACCOUNT, "copy");
                double restoreSeconds = (System.nanoTime() - t1) / 1e9;
                if (exported.items() != items || restored.items() != items) {
                    throw new IllegalStateException("-j " + n + ": exported " + exported.items() + ", restored "
                            + restored.items() + " of " + items + " items");
                }
                storage.tables().deleteTable(ACCOUNT, "copy");
                awaitGone(storage);
                BenchBackends.deleteTree(dir);
                if (run > 0) {
                    bestExport[j] = Math.min(bestExport[j], exportSeconds);
                    bestRestore[j] = Math.min(bestRestore[j], restoreSeconds);
                }
                System.out.printf("%s -j %d: export %.2f s (%d files) | restore %.2f s (%d writers) (load average %s)%n",
                        run == 0 ? "warm-up" : "run " + run, n, exportSeconds, exported.dataFiles().size(),
                        restoreSeconds, restored.writers(), BenchBackends.loadAverage());
            }
        }
        for (int j = 0; j < JOBS.length; j++) {
            System.out.printf("%s -j %d (best of %d): export %.2f s, %.2fx -j 1 | restore %.2f s, %.2fx -j 1%n", backend,
                    JOBS[j], runs, bestExport[j], bestExport[0] / bestExport[j], bestRestore[j],
                    bestRestore[0] / bestRestore[j]);
        }
        if (backend.startsWith("PostgreSQL")) {
            System.out.printf("targets: export -j 2 >= 1.3x -j 1: %.2fx; restore -j 2 >= 1.3x -j 1: %.2fx%n",
                    bestExport[0] / bestExport[1], bestRestore[0] / bestRestore[1]);
        }
    }

    /** DeleteTable is asynchronous: the next restore into the name waits until the table is gone. */
    private static void awaitGone(Storage storage) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                storage.tables().describeTable(ACCOUNT, "copy");
            } catch (dev.stillpoint.domain.error.StorageException e) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("table copy not gone after 120 s");
    }
}
