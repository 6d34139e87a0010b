package dev.stillpoint.cli;

import dev.stillpoint.backup.ExportListener;
import dev.stillpoint.backup.ExportResult;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.out.PageBudget;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The main job, end to end on an embedded database: load a table ({@link DemoData}), export a snapshot
 * of it (the {@code export} code path) while a writer ({@link DemoWriter}) overwrites, deletes and
 * inserts items, then have {@link DemoVerification} prove the export is the table exactly as it was
 * when the snapshot opened and {@link DemoRestore} restore it. This class is the scenario alone.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Export a consistent snapshot of a SQLite table while a writer changes it, then verify the"
                + " export against the table as it was when the snapshot opened: nothing the writer did leaked in,"
                + " nothing that was there is lost, no duplicates, strict key order.",
            "Runs in a temporary directory that is deleted at the end (unless --keep)."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:every check passed", "1:storage error", "2:usage error", "7:a verification check failed"})
final class DemoCommand extends CliCommand {

    private static final String ACCOUNT = DemoData.ACCOUNT;
    private static final String TABLE = DemoData.TABLE;
    static final String GSI = "by-category";
    private static final KeySchema GSI_KEY = KeySchema.composite("category", "rank");
    /** Small pages, so the export is many reads inside one transaction while the writer commits between them. */
    static final PageBudget PAGE = new PageBudget(100, 64 << 10);
    /**
     * At PACE_POINTS points spread over the export, the exporter lets the writer catch up to at least
     * PACE_WRITES writes per point so far: writes land between the pages, all the way through.
     */
    private static final int PACE_POINTS = 40;
    private static final int PACE_WRITES = 5;

    @Option(names = "--items", paramLabel = "N", defaultValue = "10000", description = "Items to load (default: ${DEFAULT-VALUE}).")
    int items;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "42", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--keep", description = "Keep the temporary directory (database and export) and print its path.")
    boolean keep;

    @Override
    int run() {
        if (items < 1) {
            throw new CliFailure(ExitCodes.USAGE, "--items must be at least 1, got " + items);
        }
        long started = System.nanoTime();
        Path dir;
        try {
            dir = Files.createTempDirectory("stillpoint-demo-");
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.OUTPUT, "cannot create a temporary directory: " + e.getMessage(), e);
        }
        try {
            return demo(dir, started);
        } finally {
            if (keep) {
                answer.put("kept", dir.toString());
                out().println("kept " + dir);
                out().flush();
            } else {
                deleteRecursively(dir);
            }
        }
    }

    private int demo(Path dir, long started) {
        PrintWriter out = out();
        Path db = dir.resolve("demo.db");
        Path exportDir = dir.resolve("export");
        out.println("Stillpoint demo: export a consistent snapshot while a writer changes the table");
        out.printf("  database  %s (SQLite, WAL)%n", db);
        out.printf("  table     %s: key pk (S) + sk (N)%n", TABLE);
        out.flush();

        SqliteConfig config = SqliteConfig.file(db).withControlPlaneDelay(Duration.ZERO).withPageBudget(PAGE);
        try (SqliteStorage storage = DatabaseFile.open(db, config)) {
            TableOperations tables = storage.tables();
            CreateTableRequest request = CreateTableCommand.request(ACCOUNT, TABLE,
                    new KeySpecs.KeyConverter().convert("pk:S,sk:N"), List.of());
            CreateTableCommand.createAndWait(tables, request, Duration.ofSeconds(10));

            // The model: the table as it is when the snapshot opens (the writer starts only after the open returns).
            long loadStart = System.nanoTime();
            Random random = new Random(seed);
            Map<String, Item> atOpen = new HashMap<>(items * 2);
            List<Item> loaded = new ArrayList<>(items);
            BatchLoad load = new BatchLoad(tables, ACCOUNT, TABLE);
            for (int i = 0; i < items; i++) {
                Item item = DemoData.item(i, random);
                load.put(item);
                atOpen.put(DemoData.keyId(item, DemoData.SCHEMA), item);
                loaded.add(item);
            }
            load.flush();
            out.printf("  loaded    %,d items in %.1f s%n", items, seconds(System.nanoTime() - loadStart));
            out.flush();
            // The GSI comes after the load, so the demo also shows UpdateTable's backfill.
            long gsiStart = System.nanoTime();
            tables.addGlobalSecondaryIndex(ACCOUNT, TABLE, CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating(GSI, GSI_KEY, Projection.all()),
                    new AttributeDefinition("category", ScalarType.S), new AttributeDefinition("rank", ScalarType.N)));
            out.printf("  gsi       %s (category S, rank N) added and backfilled in %.1f s%n", GSI,
                    seconds(System.nanoTime() - gsiStart));
            out.flush();

            DemoWriter writer = new DemoWriter(tables, ACCOUNT, TABLE, DemoData.SCHEMA, loaded, seed + 1);
            Pacing pacing = new Pacing(writer, Math.max(1, items / PACE_POINTS));
            ExportResult result;
            try {
                result = Exporter.export(storage.snapshots(), ACCOUNT, TABLE, Exporter.prepareOutput(exportDir), pacing);
            } finally {
                writer.stop();
            }
            if (writer.failure() != null) {
                throw writer.failure();
            }
            List<DemoWriter.Write> writes = writer.writes();
            Map<DemoWriter.Kind, Integer> during = new EnumMap<>(DemoWriter.Kind.class);
            int duringTotal = 0;
            for (DemoWriter.Write w : writes) {
                if (w.returnedAtNanos() <= pacing.finishedAt) {
                    during.merge(w.kind(), 1, Integer::sum);
                    duringTotal++;
                }
            }
            out.printf("  snapshot  %s %s, opened with %,d items; pages of at most %d items%n",
                    result.info().kind(), result.info().marker(), atOpen.size(), PAGE.rows());
            out.printf("  export    %,d items in %d ms -> items.jsonl (%,d bytes) + manifest.json%n",
                    result.items(), result.elapsed().toMillis(), result.bytes());
            out.printf("  writer    %,d writes committed during the export: %,d overwrites, %,d deletes, %,d inserts"
                            + " (%,d in all)%n", duringTotal, during.getOrDefault(DemoWriter.Kind.OVERWRITE, 0),
                    during.getOrDefault(DemoWriter.Kind.DELETE, 0), during.getOrDefault(DemoWriter.Kind.INSERT, 0),
                    writes.size());
            out.flush();

            DemoVerification v = DemoVerification.verify(result, atOpen, writes, duringTotal);
            Map<String, Item> after = DemoVerification.applied(atOpen, writes);
            v.checkAfter(storage, after);
            // The export, verified, restored into a new table and proved equal to the snapshot [E4, E6].
            DemoRestore restored = DemoRestore.prove(storage, db, exportDir, TABLE, GSI, GSI_KEY, atOpen);
            v.failures.addAll(restored.failures);
            v.report(out, result, atOpen.size(), writes, restored.lines, seconds(System.nanoTime() - started));
            answer.put("table", TABLE);
            answer.put("items", items);
            answer.put("exportedItems", result.items());
            answer.put("writesDuringExport", duringTotal);
            answer.put("verified", v.failures.isEmpty());
            v.failures.forEach(answer.putArray("failures")::add);
            if (!v.failures.isEmpty()) {
                return fail(ExitCodes.VERIFICATION_FAILED, "FAILED: " + String.join("; ", v.failures));
            }
            return ExitCodes.OK;
        }
    }

    /** The exporter's listener: starts the writer once the snapshot is open, and keeps it interleaved with the pages. */
    private static final class Pacing implements ExportListener {
        private final DemoWriter writer;
        private final long every;
        volatile long finishedAt = Long.MAX_VALUE;

        Pacing(DemoWriter writer, long every) {
            this.writer = writer;
            this.every = every;
        }

        @Override
        public void opened(SnapshotInfo info) {
            writer.start();
        }

        @Override
        public void exported(long count) {
            if (count % every == 0) {
                writer.awaitCommitted(count / every * PACE_WRITES, 2000);
            }
        }

        @Override
        public void finished(long count) {
            finishedAt = System.nanoTime();
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // Best effort: a temporary directory.
                }
            });
        } catch (IOException ignored) {
            // Best effort: a temporary directory.
        }
    }
}
