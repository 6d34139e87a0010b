package dev.stillpoint.cli;

import dev.stillpoint.backup.ExportListener;
import dev.stillpoint.backup.ExportResult;
import dev.stillpoint.backup.TableExport;
import dev.stillpoint.backup.DescriptionJson;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.KeyOrder;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.SnapshotInfo;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The main job, end to end on an embedded database: load a table, export a snapshot of it (the
 * {@code export} code path) while a writer overwrites, deletes and inserts items, then prove the
 * export is the table exactly as it was when the snapshot opened.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Export a consistent snapshot of a SQLite table while a writer changes it, then verify the"
                + " export against the table as it was when the snapshot opened: nothing the writer did leaked in,"
                + " nothing that was there is lost, no duplicates, strict key order.",
            "Runs in a temporary directory that is deleted at the end (unless --keep)."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:every check passed", "1:storage error", "2:usage error", "7:a verification check failed"})
final class DemoCommand extends CliCommand {

    static final String ACCOUNT = StorageCommand.DEFAULT_ACCOUNT;
    static final String TABLE = "demo-orders";
    static final String GSI = "by-category";
    private static final KeySchema SCHEMA = KeySchema.composite("pk", "sk");
    private static final KeySchema GSI_KEY = KeySchema.composite("category", "rank");
    private static final int ITEMS_PER_PARTITION = 100;
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
        try (SqliteStorage storage = StorageCommand.open(db, config)) {
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
                Item item = item(i, random);
                load.put(item);
                atOpen.put(keyId(item, SCHEMA), item);
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

            DemoWriter writer = new DemoWriter(tables, ACCOUNT, TABLE, SCHEMA, loaded, seed + 1);
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

            Verification v = verify(result, atOpen, writes, duringTotal);
            Map<String, Item> after = applied(atOpen, writes);
            v.checkAfter(storage, after);
            // The export, verified, restored into a new table and proved equal to the snapshot [E4, E6].
            DemoRestore restored = DemoRestore.prove(storage, db, exportDir, TABLE, GSI, GSI_KEY, atOpen);
            v.failures.addAll(restored.failures);
            v.report(out, result, atOpen.size(), writes, restored.lines, seconds(System.nanoTime() - started));
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

    /** The checks, and what they found. */
    private static final class Verification {
        final List<String> failures = new ArrayList<>();
        long lines;
        long insertedLeaked;
        long newerVersions;
        long unknown;
        long duplicates;
        long outOfOrder;
        long missing;
        long deletedButExported;
        long overwrittenAtOldContent;
        boolean shaMatches;
        long afterCount;
        long afterMismatches;

        void fail(String what) {
            failures.add(what);
        }

        void checkAfter(SqliteStorage storage, Map<String, Item> expected) {
            // A second snapshot, after the writer: every write is there, so the first one's silence was isolation.
            Set<String> seen = new HashSet<>();
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, TABLE)) {
                while (s.items().hasNext()) {
                    Item item = s.items().next().item();
                    afterCount++;
                    String id = keyId(item, SCHEMA);
                    seen.add(id);
                    if (!item.equals(expected.get(id))) {
                        afterMismatches++;
                    }
                }
            }
            afterMismatches += expected.keySet().stream().filter(id -> !seen.contains(id)).count();
            if (afterMismatches != 0 || afterCount != expected.size()) {
                fail("a snapshot after the writer differs from the writes applied in order in " + afterMismatches
                        + " items (" + afterCount + " items, expected " + expected.size() + ")");
            }
        }

        void report(PrintWriter out, ExportResult r, int atOpen, List<DemoWriter.Write> writes, List<String> restore,
                    double total) {
            long inserts = writes.stream().filter(w -> w.kind() == DemoWriter.Kind.INSERT).count();
            out.println("Verified against the table as it was when the snapshot opened:");
            out.printf("  items exported   %,d (the table held %,d at the open; manifest says %,d)%n", lines, atOpen, r.items());
            out.printf("  leaked in: %d     inserted items %d of %,d, newer versions %d, unknown items %d%n",
                    insertedLeaked + newerVersions + unknown, insertedLeaked, inserts, newerVersions, unknown);
            out.printf("  lost: %d          missing %d, changed %d; %,d items deleted and %,d overwritten since the open"
                    + " are there as they were%n", missing + newerVersions, missing, newerVersions,
                    deletedButExported, overwrittenAtOldContent);
            out.printf("  duplicates: %d%n", duplicates);
            out.printf("  key-ordered: %s   %s%n", r.keyOrdered() && outOfOrder == 0 ? "yes" : "NO",
                    r.keyOrdered() ? outOfOrder + " out of order (strictly ascending by KeyOrder: S by UTF-8 bytes, N by value)"
                            : "(the snapshot did not declare key order)");
            out.printf("  sha256: %s   %s%n", shaMatches ? "matches" : "MISMATCH", r.sha256());
            out.printf("  after the writer, a new snapshot holds %,d items with every one of the %,d writes: %s%n",
                    afterCount, writes.size(), afterMismatches == 0 ? "yes" : "NO");
            out.printf("  marker: %s %s%n", r.info().kind(), r.info().marker());
            restore.forEach(out::println);
            out.printf("%s in %.1f s%n", failures.isEmpty() ? "OK" : "FAILED", total);
            out.flush();
        }
    }

    private static Verification verify(ExportResult r, Map<String, Item> atOpen, List<DemoWriter.Write> writes,
                                       int duringExport) {
        Verification v = new Verification();
        if (duringExport == 0) {
            v.fail("the writer committed no write during the export, so nothing was proved");
        }
        Set<String> inserted = new HashSet<>();
        Set<String> deleted = new HashSet<>();
        Set<String> overwritten = new HashSet<>();
        for (DemoWriter.Write w : writes) {
            switch (w.kind()) {
                case INSERT -> inserted.add(w.keyId());
                case DELETE -> deleted.add(w.keyId());
                case OVERWRITE -> overwritten.add(w.keyId());
            }
        }
        TableDescription d = r.description();
        KeyOrder order = KeyOrder.resolve(d.keySchema(), d.attributeDefinitions()).ordered().orElse(null);
        if (!r.keyOrdered() || order == null) {
            v.fail("the snapshot of a table keyed pk:S, sk:N is not key-ordered");
        }
        Set<String> seen = new HashSet<>(atOpen.size() * 2);
        Key previous = null;
        try (BufferedReader in = Files.newBufferedReader(r.dataFile())) {
            String line;
            while ((line = in.readLine()) != null) {
                v.lines++;
                Item item = ItemJson.decode(line);
                String id = keyId(item, SCHEMA);
                if (!seen.add(id)) {
                    v.duplicates++;
                }
                Item expected = atOpen.get(id);
                if (expected == null) {
                    if (inserted.contains(id)) {
                        v.insertedLeaked++;
                    } else {
                        v.unknown++;
                    }
                } else if (!expected.equals(item)) {
                    v.newerVersions++;
                } else {
                    v.deletedButExported += deleted.contains(id) ? 1 : 0;
                    v.overwrittenAtOldContent += overwritten.contains(id) ? 1 : 0;
                }
                Key key = Key.of(item, d.keySchema());
                if (order != null && previous != null && order.compare(previous, key) >= 0) {
                    v.outOfOrder++;
                }
                previous = key;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read back " + r.dataFile(), e);
        }
        v.missing = atOpen.keySet().stream().filter(id -> !seen.contains(id)).count();
        if (v.lines != atOpen.size()) {
            v.fail("the export holds " + v.lines + " items, the table held " + atOpen.size() + " at the open");
        }
        if (v.lines != r.items()) {
            v.fail("the exporter counted " + r.items() + " items but items.jsonl has " + v.lines + " lines");
        }
        if (v.insertedLeaked + v.newerVersions + v.unknown > 0) {
            v.fail((v.insertedLeaked + v.newerVersions + v.unknown) + " items leaked in");
        }
        if (v.missing + v.newerVersions > 0) {
            v.fail((v.missing + v.newerVersions) + " items lost");
        }
        if (v.duplicates > 0) {
            v.fail(v.duplicates + " duplicate keys");
        }
        if (v.outOfOrder > 0) {
            v.fail(v.outOfOrder + " items out of key order");
        }
        checkManifest(v, r);
        return v;
    }

    private static void checkManifest(Verification v, ExportResult r) {
        String sha = sha256(r.dataFile());
        JsonNode m;
        try {
            m = DescriptionJson.MAPPER.readTree(r.manifestFile().toFile());
        } catch (IOException e) {
            v.fail("cannot read the manifest: " + e.getMessage());
            return;
        }
        v.shaMatches = sha.equals(m.path("sha256").asText()) && sha.equals(r.sha256());
        if (!v.shaMatches) {
            v.fail("sha256 of items.jsonl is " + sha + ", the manifest says " + m.path("sha256").asText());
        }
        if (m.path("itemCount").asLong(-1) != v.lines) {
            v.fail("the manifest's itemCount " + m.path("itemCount") + " is not the " + v.lines + " lines");
        }
        if (!TableExport.DATA_FILE.equals(m.path("dataFile").asText())
                || m.path("keyOrdered").asBoolean() != r.keyOrdered()
                || !r.info().marker().equals(m.path("snapshot").path("marker").asText())
                || !r.info().kind().equals(m.path("snapshot").path("kind").asText())
                || !TABLE.equals(m.path("table").path("TableName").asText())
                || m.path("table").path("GlobalSecondaryIndexes").size() != 1) {
            v.fail("the manifest does not describe this export: " + DescriptionJson.text(m));
        }
    }

    /** The table after every write, applied in commit order to the table at the open. */
    private static Map<String, Item> applied(Map<String, Item> atOpen, List<DemoWriter.Write> writes) {
        Map<String, Item> after = new HashMap<>(atOpen);
        for (DemoWriter.Write w : writes) {
            if (w.item() == null) {
                after.remove(w.keyId());
            } else {
                after.put(w.keyId(), w.item());
            }
        }
        return after;
    }

    /**
     * The i-th item: 100 sort keys per partition; sort keys whose text order differs from their
     * numeric order (-62.5 ... 61.25), and a few partitions whose UTF-8 order differs from Java's
     * String order (U+FF61 sorts before an emoji in UTF-8, after it in UTF-16).
     */
    static Item item(int i, Random random) {
        int p = i / ITEMS_PER_PARTITION;
        int j = i % ITEMS_PER_PARTITION;
        String pk = switch (p % 50) {
            case 7 -> "\uD83D\uDE00 order-" + p;
            case 8 -> "\uFF61 order-" + p;
            case 9 -> "\u00E9 order-" + p;
            default -> String.format("customer#%05d", p);
        };
        String sk = BigDecimal.valueOf(j - ITEMS_PER_PARTITION / 2L).multiply(new BigDecimal("1.25")).toPlainString();
        Map<String, AttributeValue> a = new LinkedHashMap<>();
        a.put("pk", new AttributeValue.S(pk));
        a.put("sk", AttributeValue.N.of(sk));
        a.put("category", new AttributeValue.S("category-" + (i % 8)));
        a.put("rank", AttributeValue.N.of(Integer.toString(i % 997)));
        a.put("version", AttributeValue.N.of("0"));
        a.put("payload", new AttributeValue.S(text(random, 120)));
        a.put("tags", new AttributeValue.SS(new LinkedHashSet<>(List.of("t" + (i % 3), "t" + (3 + i % 5)))));
        a.put("shipping", new AttributeValue.M(Map.of("zip", new AttributeValue.S(String.format("%05d", i % 99999)),
                "express", i % 2 == 0 ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE)));
        return Item.of(a);
    }

    private static String text(Random random, int length) {
        char[] c = new char[length];
        for (int i = 0; i < length; i++) {
            c[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(c);
    }

    /** A key's identity: the canonical DynamoDB JSON of its key attributes. */
    static String keyId(Item item, KeySchema schema) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        key.put(schema.partitionKey(), item.get(schema.partitionKey()));
        schema.sortKey().ifPresent(s -> key.put(s, item.get(s)));
        return ItemJson.encode(Item.of(key));
    }

    private static String sha256(Path file) {
        MessageDigest sha = TableExport.sha256();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                sha.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return java.util.HexFormat.of().formatHex(sha.digest());
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
