import dev.stillpoint.backup.ChangesExport;
import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.request.BatchWriteResult;
import dev.stillpoint.domain.request.WriteRequest;
import dev.stillpoint.domain.table.ChangeLog;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.properties.bench.BenchItems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Issue 31's second target: an incremental export of 1% of a table's keys against the full export of the
 * same table, in one run: {@code IncrementalExportBench ITEMS RUNS WORK_DIR sqlite|postgres|both}.
 *
 * <p>Per backend: the table (pk S, sk N, one GSI on email, BenchItems' ~400-byte items) is loaded through
 * the restore's bulk port with its log off, then switched on (UpdateTable [I1]); per run, the full export
 * (marker A) is timed, 1% of the keys are overwritten (BatchWriteItem of 25, not timed, a different 1% each
 * run) and the export since A is timed; a first pair of the same warms up and is left out of the target. Both through the library's {@code TableExport}, the CLI's path
 * without the JVM start. Prints each run's seconds and "incremental / full" (target <= 0.05). Checks only
 * that the window holds exactly the keys written. PostgreSQL: embedded, fsync and synchronous_commit on,
 * shared layout.
 */
public final class IncrementalExportBench {

    private static final String ACCOUNT = BenchBackends.ACCOUNT;
    private static final String TABLE = BenchBackends.TABLE;

    private IncrementalExportBench() {
    }

    public static void main(String[] args) throws Exception {
        int items = Integer.parseInt(args[0]);
        int runs = Integer.parseInt(args[1]);
        Path work = Path.of(args[2]);
        String which = args.length > 3 ? args[3] : "both";
        BenchBackends.each(work, "incremental", which, (backend, storage) -> bench(backend, storage, items, runs, work));
    }

    private static void bench(String backend, Storage storage, int items, int runs, Path work) throws Exception {
        System.out.printf("%n== %s: %,d items, 1%% of the keys changed per window; load average %s%n", backend, items,
                BenchBackends.loadAverage());
        long loadStart = System.nanoTime();
        BenchBackends.loadTable(storage, items);
        storage.tables().updateChangeLog(ACCOUNT, TABLE, ChangeLog.NEW_IMAGE);
        System.out.printf("loaded (bulk restore) and the log switched on in %.1f s%n", (System.nanoTime() - loadStart) / 1e9);
        int changed = items / 100;
        double worst = 0;
        // Run 0 warms the JIT and the caches up and is left out of the target.
        for (int run = 0; run <= runs; run++) {
            Path full = work.resolve("incremental-full");
            Path since = work.resolve("incremental-since");
            BenchBackends.deleteTree(full);
            BenchBackends.deleteTree(since);
            long t0 = System.nanoTime();
            ExportResult a = TableExport.to(full).run(storage, ACCOUNT, TABLE);
            double fullSeconds = (System.nanoTime() - t0) / 1e9;
            String marker = a.info().marker();
            write(storage, changed, run);
            long t1 = System.nanoTime();
            ChangesExport.Result window = TableExport.to(since).runSince(storage, ACCOUNT, TABLE, marker);
            double sinceSeconds = (System.nanoTime() - t1) / 1e9;
            if (window.puts() != changed || window.tombstones() != 0) {
                throw new IllegalStateException("the window holds " + window.puts() + " puts and " + window.tombstones()
                        + " tombstones; " + changed + " keys were written");
            }
            double ratio = sinceSeconds / fullSeconds;
            if (run > 0) {
                worst = Math.max(worst, ratio);
            }
            System.out.printf((run == 0 ? "warm-up" : "run " + run) + ": full export %,d items %.2f s | export --since A: %,d changes %.3f s"
                            + " | incremental / full %.3f (load average %s)%n", a.items(), fullSeconds,
                    window.puts(), sinceSeconds, ratio, BenchBackends.loadAverage());
            BenchBackends.deleteTree(full);
            BenchBackends.deleteTree(since);
        }
        System.out.printf("target %s incremental of 1%% / full export <= 0.05: %s (worst run %.3f)%n", backend,
                worst <= 0.05 ? "MET" : "NOT MET", worst);
    }

    /** Overwrites every 100th item, offset by the run, so each window holds a different 1% of the keys. */
    private static void write(Storage storage, int changed, int run) {
        List<WriteRequest> batch = new ArrayList<>(25);
        for (int k = 0; k < changed; k++) {
            Item item = BenchItems.item(k * 100 + run).with("run", AttributeValue.n(Integer.toString(run)));
            batch.add(new WriteRequest.Put(item));
            if (batch.size() == 25 || k == changed - 1) {
                BatchWriteResult result = storage.tables().batchWriteItem(ACCOUNT, Map.of(TABLE, List.copyOf(batch)));
                if (!result.unprocessedItems().isEmpty()) {
                    throw new IllegalStateException("unprocessed items: " + result.unprocessedItems().size());
                }
                batch.clear();
            }
        }
    }
}
