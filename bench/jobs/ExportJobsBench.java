import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.backup.TableRestore;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.in.Storage;
import dev.stillpoint.properties.bench.BenchItems;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

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

    private static final String ACCOUNT = "000000000000";
    private static final String TABLE = "bench";
    private static final int[] JOBS = {1, 2, 4};

    private ExportJobsBench() {
    }

    public static void main(String[] args) throws Exception {
        int items = Integer.parseInt(args[0]);
        int runs = Integer.parseInt(args[1]);
        Path work = Path.of(args[2]);
        String which = args.length > 3 ? args[3] : "both";
        if (!which.equals("postgres")) {
            Path db = work.resolve("jobs.db");
            deleteSqlite(db);
            try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db))) {
                bench("SQLite", storage, items, runs, work);
            } finally {
                deleteSqlite(db);
            }
        }
        if (!which.equals("sqlite")) {
            try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(work.resolve("jobs-pg"))
                    .setCleanDataDirectory(true).setPGStartupWait(java.time.Duration.ofSeconds(90))
                    .setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on").start()) {
                String base = "jdbc:postgresql://localhost:" + pg.getPort() + "/";
                try (Connection c = DriverManager.getConnection(base + "postgres?user=postgres");
                     Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE jobs");
                }
                PostgresConfig config = PostgresConfig.shared(
                        new PostgresConfig.Database(base + "jobs?user=postgres", null, null));
                try (PostgresStorage storage = PostgresStorage.open(config)) {
                    bench("PostgreSQL (shared layout)", storage, items, runs, work);
                }
            }
        }
    }

    private static void bench(String backend, Storage storage, int items, int runs, Path work) throws Exception {
        System.out.printf("%n== %s: %,d items, export and restore at -j 1, 2, 4; load average %s%n", backend, items,
                loadAverage());
        long loadStart = System.nanoTime();
        CreateTableRequest definition = CreateTableRequest.builder(ACCOUNT, TABLE)
                .partitionKey("pk", ScalarType.S).sortKey("sk", ScalarType.N)
                .globalIndex("by_email", "email", ScalarType.S, Projection.all()).build();
        RestoreLoad load = storage.restores().begin(definition,
                new RestoreOrigin(Optional.empty(), Optional.empty(), Instant.now()));
        List<Item> page = new ArrayList<>(1000);
        for (int i = 0; i < items; i++) {
            page.add(BenchItems.item(i));
            if (page.size() == 1000) {
                load.write(page);
                page.clear();
            }
        }
        if (!page.isEmpty()) {
            load.write(page);
        }
        load.complete();
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
                deleteTree(dir);
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
                deleteTree(dir);
                if (run > 0) {
                    bestExport[j] = Math.min(bestExport[j], exportSeconds);
                    bestRestore[j] = Math.min(bestRestore[j], restoreSeconds);
                }
                System.out.printf("%s -j %d: export %.2f s (%d files) | restore %.2f s (%d writers) (load average %s)%n",
                        run == 0 ? "warm-up" : "run " + run, n, exportSeconds, exported.dataFiles().size(),
                        restoreSeconds, restored.writers(), loadAverage());
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

    private static String loadAverage() throws Exception {
        String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return f[0] + " " + f[1] + " " + f[2];
    }

    private static void deleteSqlite(Path db) throws Exception {
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            Files.deleteIfExists(Path.of(db + suffix));
        }
    }

    private static void deleteTree(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
