package dev.stillpoint.adapters.sqlite.engine;

import static dev.stillpoint.properties.bench.BenchItems.item;
import static dev.stillpoint.properties.bench.BenchItems.sample;
import static dev.stillpoint.properties.bench.Machine.loadAverage;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.storage.DataRelation;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.properties.bench.BenchOptions;
import dev.stillpoint.properties.bench.LoadCheck;
import dev.stillpoint.properties.bench.ScanRounds;
import dev.stillpoint.properties.bench.SnapshotDrain;
import dev.stillpoint.properties.bench.StreamHeap;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The SQLite snapshot benchmark of issue 3 (run by {@code bench/sqlite-snapshot.sh}; not a test).
 *
 * <p>Loads a table of ~400-byte items (pk S, sk N, ten attributes) straight into its data relation
 * in large transactions, with exactly the encoding {@code putItem} uses (ItemLimits, ItemKeys,
 * ItemJson; checked on a sample against real putItem rows, getItem and a snapshot), then measures on
 * that one table: (a) a raw sqlite-jdbc scan in key order, (b) the snapshot stream taking items as
 * stored, (c) the stream decoded, (d) the sqlite3 shell; peak heap while streaming 100k vs 1M items;
 * snapshot open latency.
 */
public final class SnapshotBench {

    static final String ACCOUNT = "000000000000"; // the CLI's default account, so `stillpoint export` finds the table
    static final String TABLE = "bench";
    static final String SMALL_TABLE = "bench_small";
    static final String CHECK_TABLE = "bench_check";
    static final int LOAD_BATCH = 50_000;
    static final KeySchema SCHEMA = KeySchema.composite("pk", "sk");
    static final List<AttributeDefinition> DEFINITIONS =
            List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N));


    public static void main(String[] args) throws Exception {
        Map<String, String> opt = BenchOptions.parse(args);
        Path db = Path.of(opt.getOrDefault("db", "target/bench/sqlite-snapshot.db")).toAbsolutePath();
        int items = Integer.parseInt(opt.getOrDefault("items", "1000000"));
        int small = Integer.parseInt(opt.getOrDefault("small", Integer.toString(Math.min(100_000, items))));
        int runs = Integer.parseInt(opt.getOrDefault("runs", "3"));
        if (opt.containsKey("heap-child")) {
            heapChild(db, opt.get("heap-child"), Integer.parseInt(opt.get("expect")));
            return;
        }
        if (opt.containsKey("loop-stream")) {
            loopStream(db, opt.get("loop-stream"), Integer.parseInt(opt.getOrDefault("seconds", "20")));
            return;
        }
        System.out.printf(Locale.ROOT, "SQLite snapshot benchmark: %,d items (heap check also at %,d), database %s%n",
                items, small, db);
        System.out.printf(Locale.ROOT, "JVM %s %s, max heap %d MiB, %d CPUs, sqlite-jdbc %s%n",
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors(), sqliteJdbcVersion());

        boolean reuse = opt.containsKey("reuse") && Files.exists(db) && counts(db, items, small);
        if (!reuse) {
            load(db, items, small);
        } else {
            System.out.println("reusing the loaded database (--reuse)");
        }
        System.out.printf(Locale.ROOT, "database file: %.1f MiB%n", Files.size(db) / 1048576.0);

        SqliteConfig config = SqliteConfig.file(db).withControlPlaneDelay(Duration.ZERO);
        if (opt.containsKey("page-rows")) { // the snapshot page budget's rows (bytes stay at the default)
            config = config.withPageBudget(new PageBudget(Integer.parseInt(opt.get("page-rows")), PageBudget.DEFAULT.bytes()));
        }
        System.out.println("snapshot page budget: " + config.pageBudget());
        try (SqliteStorage storage = SqliteStorage.open(config)) {
            String relation = relationName(db, TABLE);
            verify(storage, db, relation, items, small);
            throughput(storage, db, relation, items, runs);
            if (!opt.containsKey("throughput-only")) {
                heap(storage, db, items, small);
                openLatency(storage, db);
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Items

    /** What putItem stores for {@code item}: the same validation, key encoding and JSON encoding. */
    record Row(byte[] pk, byte[] sk, String json) {
        static Row of(Item item) {
            Item valid = ItemLimits.validateForPut(item, SCHEMA, DEFINITIONS);
            ItemKeys key = ItemKeys.of(dev.stillpoint.domain.item.Key.of(valid, SCHEMA));
            return new Row(key.pk(), key.sk(), ItemJson.encode(valid));
        }
    }

    static CreateTableRequest request(String name) {
        return new CreateTableRequest(ACCOUNT, name, SCHEMA, DEFINITIONS, List.of(), List.of(), Optional.empty());
    }

    // ------------------------------------------------------------------------------------------
    // Load

    private static void load(Path db, int items, int small) throws Exception {
        Files.createDirectories(db.getParent());
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            Files.deleteIfExists(Path.of(db + suffix));
        }
        long start = System.nanoTime();
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db).withControlPlaneDelay(Duration.ZERO))) {
            for (String t : new String[] {TABLE, SMALL_TABLE, CHECK_TABLE}) {
                storage.tables().createTable(request(t));
            }
            for (String t : new String[] {TABLE, SMALL_TABLE, CHECK_TABLE}) {
                awaitActive(storage, t);
            }
        }
        long bytes = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=OFF"); // this loader connection only: the load need not survive a crash
            }
            c.setAutoCommit(false);
            long rowsStart = System.nanoTime();
            bytes += bulkInsert(c, relationName(db, TABLE), items);
            System.out.printf(Locale.ROOT, "bulk insert: %,d rows in %.1f s%n", items, (System.nanoTime() - rowsStart) / 1e9);
            bulkInsert(c, relationName(db, SMALL_TABLE), small);
            try (Statement s = c.createStatement()) {
                c.setAutoCommit(true);
                s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            }
        }
        double secs = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "loaded %,d + %,d items in %.1f s (%,.0f items/s); mean item %.0f bytes of JSON%n",
                items, small, secs, (items + small) / secs, bytes / (double) items);
    }

    private static long bulkInsert(Connection c, String relationName, int items) throws SQLException {
        DataRelation base = DataRelation.fromCatalog(relationName);
        DSLContext render = DSL.using(SQLDialect.SQLITE);
        String sql = render.insertInto(base.table()).columns(base.pk(), base.sk(), base.item())
                .values(DSL.param("pk", byte[].class), DSL.param("sk", byte[].class), DSL.param("item", String.class))
                .getSQL();
        long bytes = 0;
        try (PreparedStatement insert = c.prepareStatement(sql)) {
            for (int i = 0; i < items; i++) {
                Row row = Row.of(item(i));
                insert.setBytes(1, row.pk());
                insert.setBytes(2, row.sk());
                insert.setString(3, row.json());
                insert.executeUpdate();
                bytes += row.json().length();
                if ((i + 1) % LOAD_BATCH == 0) {
                    c.commit();
                }
            }
            c.commit();
        }
        return bytes;
    }

    private static void awaitActive(SqliteStorage storage, String table) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (storage.tables().describeTable(ACCOUNT, table).status() != TableStatus.ACTIVE) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("table " + table + " not ACTIVE within 30 s");
            }
            Thread.sleep(5);
        }
    }

    /** The base relation's name from the catalog row ({@code sp_tables.relation_name}). */
    static String relationName(Path db, String table) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             PreparedStatement q = c.prepareStatement(
                     "SELECT relation_name FROM sp_tables WHERE account_id = ? AND table_name = ?")) {
            q.setString(1, ACCOUNT);
            q.setString(2, table);
            try (ResultSet rs = q.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no catalog row for table " + table);
                }
                return DataRelation.fromCatalog(rs.getString(1)).name();
            }
        }
    }

    private static boolean counts(Path db, int items, int small) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            return count(s, relationName(db, TABLE)) == items && count(s, relationName(db, SMALL_TABLE)) == small;
        } catch (RuntimeException | SQLException e) {
            return false;
        }
    }

    private static long count(Statement s, String relation) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM \"" + DataRelation.fromCatalog(relation).name() + "\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Verification: the bulk-loaded rows are what putItem writes.

    private static void verify(SqliteStorage storage, Path db, String relation, int items, int small) throws Exception {
        String check = relationName(db, CHECK_TABLE);
        int[] sample = sample(items, 500);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("DELETE FROM \"" + check + "\"");
        }
        for (int i : sample) {
            storage.tables().putItem(ACCOUNT, CHECK_TABLE, item(i));
        }
        int same = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             PreparedStatement bulk = c.prepareStatement(
                     "SELECT pk, sk, item FROM \"" + relation + "\" WHERE pk = ? AND sk = ?");
             PreparedStatement put = c.prepareStatement(
                     "SELECT pk, sk, item FROM \"" + check + "\" WHERE pk = ? AND sk = ?");
             Statement st = c.createStatement()) {
            if (count(st, check) != sample.length) {
                throw new IllegalStateException("putItem wrote " + count(st, check) + " rows for " + sample.length + " items");
            }
            same = LoadCheck.samplesMatch(storage.tables(), ACCOUNT, TABLE, SCHEMA, sample, i -> item(i),
                    i -> Row.of(item(i)).json(), i -> row(bulk, Row.of(item(i))), i -> row(put, Row.of(item(i))), "bulk");
        }
        // A snapshot yields the same text and items, in key order: the first and the last 1000 items.
        LoadCheck.snapshotMatches(storage.snapshots(), ACCOUNT, TABLE, items, i -> Row.of(item(i)).json());
        System.out.printf(Locale.ROOT, "verified: %d sampled bulk rows byte-identical (pk, sk, item) to putItem's rows; "
                + "getItem equal; snapshot of all %,d items in key order, first/last 1000 equal%n", same, items);
    }


    private static String[] row(PreparedStatement q, Row key) throws SQLException {
        q.setBytes(1, key.pk());
        q.setBytes(2, key.sk());
        try (ResultSet rs = q.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            return new String[] {java.util.HexFormat.of().formatHex(rs.getBytes(1)),
                    java.util.HexFormat.of().formatHex(rs.getBytes(2)), rs.getString(3)};
        }
    }

    // ------------------------------------------------------------------------------------------
    // Throughput

    private static void throughput(SqliteStorage storage, Path db, String relation, int items, int runs) throws Exception {
        String rawSql = "SELECT item FROM \"" + relation + "\" ORDER BY pk, sk";
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            for (String q : new String[] {rawSql, PageQueries.nextKeysetPage(DataRelation.fromCatalog(relation))}) {
                try (ResultSet rs = s.executeQuery("EXPLAIN QUERY PLAN " + q.replace("?", "x'00'"))) {
                    StringBuilder plan = new StringBuilder();
                    while (rs.next()) {
                        plan.append(plan.length() == 0 ? "" : "; ").append(rs.getString(4));
                    }
                    System.out.println("plan of " + q + ": " + plan);
                }
            }
        }
        String sqlite3 = sqlite3Version();
        Map<String, ScanRounds.Scan> scans = new LinkedHashMap<>();
        Connection raw = DriverManager.getConnection("jdbc:sqlite:" + db);
        scans.put("a", () -> rawScan(raw, rawSql, false));
        scans.put("a5", () -> rawScan(raw, rawSql, true));
        scans.put("a2", () -> rawPaged(raw, DataRelation.fromCatalog(relation), false));
        scans.put("a4", () -> rawPaged(raw, DataRelation.fromCatalog(relation), true));
        scans.put("a3", () -> rawDecode(raw, rawSql));
        scans.put("b", () -> SnapshotDrain.drain(storage.snapshots(), ACCOUNT, TABLE, StoredKeys.OMITTED,
                SnapshotDrain.Take.STORED_BYTES, 0));
        scans.put("b2", () -> SnapshotDrain.drain(storage.snapshots(), ACCOUNT, TABLE, StoredKeys.INCLUDED,
                SnapshotDrain.Take.STORED_BYTES, 0));
        scans.put("b3", () -> stream(storage, false));
        scans.put("c", () -> stream(storage, true));
        if (sqlite3 != null) {
            long shellRows = shellCount(db, rawSql);
            if (shellRows != items) {
                throw new IllegalStateException("sqlite3 counts " + shellRows + " rows, expected " + items);
            }
            scans.put("d", () -> shell(db, rawSql, items));
        }
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("a", "(a)  raw JDBC: SELECT item ... ORDER BY pk, sk, getString only");
        labels.put("a5", "(a5) as (a), but getBytes + new String (how the adapter reads the item column)");
        labels.put("a2", "(a2) raw JDBC, the adapter's keyset pages, every row's pk, sk and item (1000 rows/page)");
        labels.put("a4", "(a4) as (a2) but pk, sk read only from a page's last row (as (b) reads)");
        labels.put("a3", "(a3) raw JDBC as (a) + ItemJson.decode per item (no stream)");
        labels.put("b", "(b)  snapshot stream, the stored bytes (storedBytes(); stored keys omitted, the default)");
        labels.put("b2", "(b2) as (b), each item with its row's stored key (the export's stream [E1])");
        labels.put("b3", "(b3) as (b), json() per item (a String made)");
        labels.put("c", "(c)  snapshot stream, item() decoded");
        labels.put("d", "(d)  sqlite3 shell " + (sqlite3 == null ? "" : sqlite3.split(" ")[0]) + " > /dev/null");
        System.out.println();
        Map<String, List<double[]>> times = ScanRounds.run(scans, runs, scan -> timed(scan, items), (r, k, t) ->
                System.out.printf(Locale.ROOT, "  round %d %-4s wall %7.3f s  cpu %7.3f s   (load average %s)%n",
                        r, k, t[0], t[1], loadAverage()));
        raw.close();
        System.out.println();
        System.out.printf(Locale.ROOT, "%,d items, %d runs each; wall = elapsed, cpu = CPU time of the reading process "
                + "(JVM incl. GC and JIT threads; for (d) the sqlite3 process)%n", items, runs);
        System.out.printf(Locale.ROOT, "%-84s %9s %9s %12s %9s %12s   %s%n", "", "best wall", "med. wall", "items/s",
                "best cpu", "items/cpu-s", "all runs wall | cpu (s)");
        Map<String, ScanRounds.Figures> figures = ScanRounds.summary(labels, times, t -> t[1], 84,
                "not available (no sqlite3 shell)", (label, ts, f) -> System.out.printf(Locale.ROOT,
                        "%-84s %9.3f %9.3f %,12.0f %9.3f %,12.0f   %s%n", label, f.bestWall(), f.medianWall(),
                        items / f.bestWall(), f.bestCpu(), items / f.bestCpu(),
                        (ScanRounds.column(ts, 0) + "| " + ScanRounds.column(ts, 1)).trim()));
        System.out.println();
        System.out.println("ratios of items/s (x/y = time(y)/time(x)):   best wall   median wall   best cpu");
        ratio("(b)/(a)", figures, "b", "a", 0.85); // issue 13's targets
        ratio("(c)/(a)", figures, "c", "a", 0.5);
        ratio("(a5)/(a)", figures, "a5", "a", Double.NaN);
        ratio("(b)/(a5)", figures, "b", "a5", Double.NaN);
        ratio("(b)/(a4)", figures, "b", "a4", Double.NaN);
        ratio("(b2)/(a)", figures, "b2", "a", Double.NaN);
        ratio("(b3)/(a)", figures, "b3", "a", Double.NaN);
        ratio("(b2)/(a2)", figures, "b2", "a2", Double.NaN);
        ratio("(a2)/(a)", figures, "a2", "a", Double.NaN);
        ratio("(a4)/(a)", figures, "a4", "a", Double.NaN);
        ratio("(a3)/(a)", figures, "a3", "a", Double.NaN);
        ratio("(c)/(a3)", figures, "c", "a3", Double.NaN);
        if (figures.containsKey("d")) {
            ratio("(a)/(d)", figures, "a", "d", Double.NaN);
            ratio("(b)/(d)", figures, "b", "d", Double.NaN);
        }
    }

    private static void ratio(String name, Map<String, ScanRounds.Figures> figures, String x, String y, double target) {
        double[] r = figures.get(x).ratioTo(figures.get(y));
        double b = r[0];
        double m = r[1];
        double c = r[2];
        String verdict = Double.isNaN(target) ? "" : String.format(Locale.ROOT, "   target >= %.2f: %s (best wall), %s (cpu)",
                target, b >= target ? "MET" : "MISSED", c >= target ? "MET" : "MISSED");
        System.out.printf(Locale.ROOT, "  %-42s %9.2f %13.2f %10.2f%s%n", name, b, m, c, verdict);
    }

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** CPU seconds of the last sqlite3 shell run (user + sys), set by {@link #shell}. */
    private static double shellCpu;

    /** {wall seconds, CPU seconds} of one scan; fails when it did not read every item. */
    private static double[] timed(ScanRounds.Scan scan, int items) throws Exception {
        shellCpu = 0;
        long cpu0 = OS.getProcessCpuTime();
        long start = System.nanoTime();
        long n = scan.run();
        double t = (System.nanoTime() - start) / 1e9;
        double cpu = (OS.getProcessCpuTime() - cpu0) / 1e9;
        if (n != items) {
            throw new IllegalStateException("a scan read " + n + " items, expected " + items);
        }
        return new double[] {t, shellCpu > 0 ? shellCpu : cpu};
    }

    /** Sink so the JIT cannot drop the reads. */
    static volatile long sink;

    /** The plain scan, the item taken with {@code getString} or, with {@code asBytes}, as the adapter takes it. */
    private static long rawScan(Connection c, String sql, boolean asBytes) throws SQLException {
        long n = 0;
        long chars = 0;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                chars += (asBytes ? new String(rs.getBytes(1), StandardCharsets.UTF_8) : rs.getString(1)).length();
                n++;
            }
        }
        sink += chars;
        return n;
    }

    private static long rawDecode(Connection c, String sql) throws SQLException {
        long n = 0;
        long attributes = 0;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                attributes += ItemJson.decode(rs.getString(1)).attributes().size();
                n++;
            }
        }
        sink += attributes;
        return n;
    }

    /**
     * The adapter's own page queries over plain JDBC, in one read transaction: the paging cost without the
     * stream; with {@code keysAtEnd}, the keys read only from the row that fills the page (the one the next page needs).
     */
    private static long rawPaged(Connection c, DataRelation base, boolean keysAtEnd) throws SQLException {
        long n = 0;
        long chars = 0;
        c.setAutoCommit(false);
        try (PreparedStatement first = c.prepareStatement(PageQueries.firstKeysetPage(base));
             PreparedStatement next = c.prepareStatement(PageQueries.nextKeysetPage(base))) {
            byte[] pk = null;
            byte[] sk = null;
            while (true) {
                PreparedStatement q;
                if (pk == null) {
                    q = first;
                    q.setInt(1, 1000);
                } else {
                    q = next;
                    q.setBytes(1, pk);
                    q.setBytes(2, sk);
                    q.setInt(3, 1000);
                }
                int rows = 0;
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        if (!keysAtEnd) {
                            pk = rs.getBytes(1);
                            sk = rs.getBytes(2);
                        }
                        chars += new String(rs.getBytes(3), StandardCharsets.UTF_8).length(); // as the adapter reads it
                        rows++;
                        if (keysAtEnd && rows == 1000) {
                            pk = rs.getBytes(1);
                            sk = rs.getBytes(2);
                            break;
                        }
                    }
                }
                n += rows;
                if (rows < 1000) {
                    break;
                }
            }
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
        sink += chars;
        return n;
    }

    private static long stream(SqliteStorage storage, boolean decode) {
        return stream(storage, TABLE, decode);
    }

    private static long stream(SqliteStorage storage, String table, boolean decode) {
        return SnapshotDrain.drain(storage.snapshots(), ACCOUNT, table, decode, 0);
    }

    /**
     * The shell reading the rows to /dev/null, under bash's {@code time} for its CPU seconds; its row
     * count was checked once, untimed, before the runs.
     */
    private static long shell(Path db, String sql, long items) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", "TIMEFORMAT='%U %S'; time sqlite3 \"$0\" \"$1\" > /dev/null",
                db.toString(), sql)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        String err = new String(p.getErrorStream().readAllBytes()).trim();
        int rc = p.waitFor();
        if (rc != 0) {
            throw new IllegalStateException("sqlite3 exited with " + rc + ": " + err);
        }
        String[] lines = err.split("\n");
        String[] userSys = lines[lines.length - 1].trim().split(" ");
        shellCpu = Double.parseDouble(userSys[0]) + Double.parseDouble(userSys[1]);
        return items;
    }

    private static long shellCount(Path db, String sql) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sqlite3", db.toString(), "SELECT count(*) FROM (" + sql + ")")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        p.waitFor();
        return Long.parseLong(out);
    }


    private static String sqlite3Version() {
        try {
            Process p = new ProcessBuilder("sqlite3", "-version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? out : null;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

    private static String sqliteJdbcVersion() {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            return c.getMetaData().getDriverVersion() + " (SQLite " + c.getMetaData().getDatabaseProductVersion() + ")";
        } catch (SQLException e) {
            return "?";
        }
    }

    // ------------------------------------------------------------------------------------------
    // Heap

    private static void heap(SqliteStorage storage, Path db, int items, int small) throws Exception {
        System.out.println();
        System.out.printf(Locale.ROOT, "heap while streaming, in this JVM (max heap %d MiB):%n",
                Runtime.getRuntime().maxMemory() >> 20);
        StreamHeap.inThisJvm((table, decode) -> stream(storage, table, decode), SMALL_TABLE, small, TABLE, items);
        // The bound itself: the same drains in a child JVM whose whole heap is 64 MiB.
        String heapLimit = System.getProperty("bench.childHeap", "64m");
        System.out.printf(Locale.ROOT, "heap bound: each drain (json() then item()) again in a child JVM with -Xmx%s:%n",
                heapLimit);
        for (String table : new String[] {SMALL_TABLE, TABLE}) {
            int expect = table.equals(TABLE) ? items : small;
            StreamHeap.childJvm(heapLimit, List.of("-Dorg.jooq.no-logo=true", "-Dorg.jooq.no-tips=true",
                    "-Dslf4j.internal.verbosity=ERROR"), SnapshotBench.class,
                    List.of("--db", db.toString(), "--heap-child", table, "--expect", Integer.toString(expect)), expect);
        }
    }

    private static void heapChild(Path db, String table, int expect) throws Exception {
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db).withControlPlaneDelay(Duration.ZERO))) {
            StreamHeap.inChild((t, decode) -> stream(storage, t, decode), table, expect);
        }
    }

    /** Runs one scan over and over for {@code seconds} (a target for a profiler): json, decode, raw, raw-decode. */
    private static void loopStream(Path db, String mode, int seconds) throws Exception {
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(db).withControlPlaneDelay(Duration.ZERO));
             Connection raw = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            String sql = "SELECT item FROM \"" + relationName(db, TABLE) + "\" ORDER BY pk, sk";
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            int passes = 0;
            while (System.nanoTime() < end) {
                long t0 = System.nanoTime();
                long n = switch (mode) {
                    case "json" -> stream(storage, TABLE, false);
                    case "decode" -> stream(storage, TABLE, true);
                    case "raw" -> rawScan(raw, sql, false);
                    case "raw-decode" -> rawDecode(raw, sql);
                    default -> throw new IllegalArgumentException(mode);
                };
                passes++;
                System.out.printf(Locale.ROOT, "pass %d: %,d items in %.3f s%n", passes, n, (System.nanoTime() - t0) / 1e9);
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Open latency

    private static void openLatency(SqliteStorage storage, Path db) throws Exception {
        int n = 50;
        for (int i = 0; i < 10; i++) {
            storage.snapshots().openTableSnapshot(ACCOUNT, TABLE).close();
        }
        double[] open = new double[n];
        double[] openClose = new double[n];
        double[] firstItem = new double[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, TABLE);
            long t1 = System.nanoTime();
            s.close();
            long t2 = System.nanoTime();
            open[i] = (t1 - t0) / 1e6;
            openClose[i] = (t2 - t0) / 1e6;
        }
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, TABLE)) {
                sink += s.items().next().json().length();
            }
            firstItem[i] = (System.nanoTime() - t0) / 1e6;
        }
        int m = 10;
        double[] storageOpen = new double[m];
        for (int i = 0; i < m; i++) {
            long t0 = System.nanoTime();
            SqliteStorage.open(SqliteConfig.file(db).withControlPlaneDelay(Duration.ZERO)).close();
            storageOpen[i] = (System.nanoTime() - t0) / 1e6;
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "open latency (%d runs after 10 warm-ups), median / p95 / max ms:%n", n);
        latency("openTableSnapshot", open);
        latency("openTableSnapshot + close", openClose);
        latency("open + first item (first page of 1000) + close", firstItem);
        latency("SqliteStorage.open + close (" + m + " runs)", storageOpen);
    }

    private static void latency(String what, double[] ms) {
        double[] s = ms.clone();
        Arrays.sort(s);
        double p95 = s[(int) Math.ceil(0.95 * s.length) - 1];
        System.out.printf(Locale.ROOT, "  %-50s %7.3f / %7.3f / %7.3f%n", what, s[s.length / 2], p95, s[s.length - 1]);
    }


}
