package dev.stillpoint.adapters.postgres.engine;

import static dev.stillpoint.properties.bench.BenchItems.item;
import static dev.stillpoint.properties.bench.BenchItems.sample;
import static dev.stillpoint.properties.bench.Machine.loadAverage;

import dev.stillpoint.adapters.postgres.PostgresConfig;
import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.Orphans;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Sessions;
import dev.stillpoint.adapters.postgres.testing.Tables;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.domain.item.ItemLimits;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.ports.in.StoredKeys;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.ports.in.TableSnapshot;
import dev.stillpoint.ports.out.PageBudget;
import dev.stillpoint.properties.bench.BenchOptions;
import dev.stillpoint.properties.bench.LoadCheck;
import dev.stillpoint.properties.bench.ScanRounds;
import dev.stillpoint.properties.bench.SnapshotDrain;
import dev.stillpoint.properties.bench.StreamHeap;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * The PostgreSQL benchmark of issue 4 (run by {@code bench/postgres-snapshot.sh}; not a test).
 *
 * <p>Starts the test server ({@code PgServer}: embedded PostgreSQL 16, or the one
 * {@code STILLPOINT_TEST_PG_URL} names), makes scratch databases for both layouts, loads a table of
 * ~400-byte items (pk S, sk N) with COPY straight into the adapter's own data relation, with exactly
 * the encoding putItem uses (checked on a sample), and prints: (1) stream throughput against COPY
 * TO STDOUT (pgjdbc and psql), the decoded stream and raw JDBC; (2) heap while streaming 100k and
 * 1M items; (3) deferred-drop latency after a snapshot's and after a plain reader's release;
 * (4) twenty concurrent DeleteTables with readers on ten; (5) PutItem latency at 200 puts/s with and
 * without twenty streaming snapshots; (6) open-and-delete races and orphans.
 */
public final class PgSnapshotBench {

    static final String ACCOUNT = "acct";
    static final String TABLE = "bench";
    static final String SMALL_TABLE = "bench_small";
    static final String CHECK_TABLE = "bench_check";
    static final String PUT_TABLE = "bench_puts";
    static final KeySchema SCHEMA = KeySchema.composite("pk", "sk");
    static final List<AttributeDefinition> DEFINITIONS =
            List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N));

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private static PgDatabases databases;
    private static ExecutorService threads;
    /** The server's postmaster pid when it runs on this machine (for server CPU), else 0. */
    private static long postmaster;

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = BenchOptions.parse(args);
        if (opt.containsKey("heap-child")) {
            heapChild(opt);
            return;
        }
        int items = Integer.parseInt(opt.getOrDefault("items", "1000000"));
        int small = Integer.parseInt(opt.getOrDefault("small", Integer.toString(Math.min(100_000, items))));
        int runs = Integer.parseInt(opt.getOrDefault("runs", "3"));
        int samples = Integer.parseInt(opt.getOrDefault("drop-samples", "20"));
        int races = Integer.parseInt(opt.getOrDefault("races", "200"));
        int putSeconds = Integer.parseInt(opt.getOrDefault("put-seconds", "10"));
        Set<String> only = opt.containsKey("only") ? Set.of(opt.get("only").split(",")) : Set.of();
        System.out.printf(Locale.ROOT, "PostgreSQL benchmark (issue 4): %,d items (heap check also at %,d)%n", items, small);
        System.out.printf(Locale.ROOT, "JVM %s %s, max heap %d MiB, %d CPUs; load average %s%n",
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors(), loadAverage());
        threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "bench");
            t.setDaemon(true);
            return t;
        });
        long t0 = System.nanoTime();
        databases = PgDatabases.create("bench");
        try {
            System.out.printf(Locale.ROOT, "server ready in %.1f s: %s%n", (System.nanoTime() - t0) / 1e9, serverInfo());
            try (PostgresStorage storage = PostgresStorage.open(config(Layout.SHARED))) {
                load(storage, items, small);
                String relation = relationName(Layout.SHARED, TABLE);
                verify(storage, relation, items);
                if (only.isEmpty() || only.contains("throughput")) {
                    throughput(storage, relation, items, runs);
                }
                if (only.isEmpty() || only.contains("heap")) {
                    heap(storage, items, small, opt.getOrDefault("child-heap", "64m"));
                }
            }
            if (only.isEmpty() || only.contains("drops")) {
                for (Layout layout : Layout.values()) {
                    deferredDrops(layout, samples);
                }
            }
            if (only.isEmpty() || only.contains("p9")) {
                for (Layout layout : Layout.values()) {
                    twentyDeletes(layout, 3);
                }
            }
            if (only.isEmpty() || only.contains("puts")) {
                putLatency(putSeconds);
            }
            if (only.isEmpty() || only.contains("races")) {
                for (Layout layout : Layout.values()) {
                    races(layout, races);
                }
            }
        } finally {
            threads.shutdownNow();
            databases.close();
        }
        System.out.printf(Locale.ROOT, "%ndone in %.0f s; load average at end %s%n", (System.nanoTime() - t0) / 1e9, loadAverage());
        System.exit(0); // the embedded server stops in a shutdown hook
    }

    private static PostgresConfig config(Layout layout) {
        return databases.config(layout).withControlPlaneDelay(Duration.ZERO);
    }

    private static String serverInfo() throws SQLException {
        try (Connection c = databases.dataSession(Layout.SHARED); Statement s = c.createStatement()) {
            StringBuilder b = new StringBuilder();
            try (ResultSet rs = s.executeQuery("SELECT version()")) {
                rs.next();
                b.append(rs.getString(1).split(",")[0]);
            }
            for (String setting : List.of("shared_buffers", "work_mem", "fsync", "synchronous_commit", "full_page_writes",
                    "max_connections", "jit")) {
                try (ResultSet rs = s.executeQuery("SHOW " + setting)) {
                    rs.next();
                    b.append("; ").append(setting).append(' ').append(rs.getString(1));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'")) {
                if (rs.next()) {
                    long pid = rs.getLong(1);
                    String[] stat = procStat(pid);
                    if (stat != null && Files.readString(Path.of("/proc/" + pid + "/comm")).trim().startsWith("postgres")) {
                        postmaster = Long.parseLong(stat[1]);
                    }
                }
            } catch (IOException e) {
                postmaster = 0;
            }
            b.append(postmaster > 0 ? "; postmaster pid " + postmaster + " (server CPU is measured)"
                    : "; server not local (server CPU not measured)");
            b.append("; pgjdbc ").append(c.getMetaData().getDriverVersion());
            return b.toString();
        }
    }

    // ------------------------------------------------------------------------------------------
    // Items (the SQLite benchmark's items, so the two are comparable)

    /** What putItem stores for {@code item}: the same validation, key values and JSON encoding. */
    record Row(String pk, BigDecimal sk, String json) {
        static Row of(Item item) {
            Item valid = ItemLimits.validateForPut(item, SCHEMA, DEFINITIONS);
            ItemKeys key = ItemKeys.of(Key.of(valid, SCHEMA));
            return new Row((String) key.pk(), (BigDecimal) key.sk().orElseThrow(), ItemJson.encode(valid));
        }
    }

    static CreateTableRequest request(String name) {
        return new CreateTableRequest(ACCOUNT, name, SCHEMA, DEFINITIONS, List.of(), List.of(), Optional.empty());
    }

    // ------------------------------------------------------------------------------------------
    // Load: COPY FROM STDIN into the adapter's own data relation

    private static void load(PostgresStorage storage, int items, int small) throws Exception {
        long start = System.nanoTime();
        for (String t : new String[] {TABLE, SMALL_TABLE, CHECK_TABLE, PUT_TABLE}) {
            Tables.createActive(storage.tables(), request(t));
        }
        long bytes;
        try (Connection c = databases.dataSession(Layout.SHARED)) {
            long copyStart = System.nanoTime();
            bytes = copyIn(c, relationName(Layout.SHARED, TABLE), items);
            double copySecs = (System.nanoTime() - copyStart) / 1e9;
            copyIn(c, relationName(Layout.SHARED, SMALL_TABLE), small);
            long vacuumStart = System.nanoTime();
            try (Statement s = c.createStatement()) {
                // As autovacuum would in time: hint bits set, visibility map and statistics current,
                // so every scan below reads the same settled pages.
                s.execute("VACUUM (FREEZE, ANALYZE) " + relationName(Layout.SHARED, TABLE));
                s.execute("VACUUM (FREEZE, ANALYZE) " + relationName(Layout.SHARED, SMALL_TABLE));
            }
            System.out.printf(Locale.ROOT, "COPY FROM STDIN of %,d rows: %.1f s (%,.0f rows/s, generation and encoding "
                            + "included); VACUUM (FREEZE, ANALYZE) %.1f s%n", items, copySecs, items / copySecs,
                    (System.nanoTime() - vacuumStart) / 1e9);
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT pg_size_pretty(pg_table_size('" + relationName(Layout.SHARED, TABLE)
                         + "')), pg_size_pretty(pg_indexes_size('" + relationName(Layout.SHARED, TABLE) + "'))")) {
                rs.next();
                System.out.printf(Locale.ROOT, "relation %s: table %s, primary key index %s%n",
                        relationName(Layout.SHARED, TABLE), rs.getString(1), rs.getString(2));
            }
        }
        double secs = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "loaded %,d + %,d items in %.1f s; mean item %.0f bytes of JSON; load average %s%n",
                items, small, secs, bytes / (double) items, loadAverage());
    }

    private static long copyIn(Connection c, String relation, int items) throws SQLException, IOException {
        CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
        CopyIn in = copy.copyIn("COPY " + relation + " (pk, sk, item) FROM STDIN");
        long bytes = 0;
        try {
            StringBuilder b = new StringBuilder(1 << 20);
            for (int i = 0; i < items; i++) {
                Row row = Row.of(item(i));
                escape(b, row.pk());
                b.append('\t').append(row.sk().toPlainString()).append('\t');
                escape(b, row.json());
                b.append('\n');
                bytes += row.json().length();
                if (b.length() > (1 << 20) - 8192 || i == items - 1) {
                    byte[] chunk = b.toString().getBytes(StandardCharsets.UTF_8);
                    in.writeToCopy(chunk, 0, chunk.length);
                    b.setLength(0);
                }
            }
            long n = in.endCopy();
            if (n != items) {
                throw new IllegalStateException("COPY loaded " + n + " rows, expected " + items);
            }
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
        return bytes;
    }

    /** COPY's text format: backslash, tab, newline and carriage return escaped. */
    private static void escape(StringBuilder b, String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '\\' -> b.append("\\\\");
                case '\t' -> b.append("\\t");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                default -> b.append(ch);
            }
        }
    }

    /** The base relation's name from the catalog row ({@code sp_tables.relation_name}), checked and quoted. */
    static String relationName(Layout layout, String table) throws SQLException {
        try (Connection c = databases.catalogDatabase(layout).connect();
             PreparedStatement q = c.prepareStatement(
                     "SELECT relation_name FROM sp_tables WHERE account_id = ? AND table_name = ?")) {
            q.setString(1, ACCOUNT);
            q.setString(2, table);
            try (ResultSet rs = q.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no catalog row for table " + table);
                }
                return "\"" + dev.stillpoint.adapters.postgres.storage.DataRelation.fromCatalog(rs.getString(1)).name() + "\"";
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Verification: the loaded rows are what putItem writes.

    private static void verify(PostgresStorage storage, String relation, int items) throws Exception {
        String check = relationName(Layout.SHARED, CHECK_TABLE);
        int[] sample = sample(items, 500);
        for (int i : sample) {
            storage.tables().putItem(ACCOUNT, CHECK_TABLE, item(i));
        }
        int same = 0;
        try (Connection c = databases.dataSession(Layout.SHARED);
             PreparedStatement bulk = c.prepareStatement("SELECT pk, sk::text, item FROM " + relation + " WHERE pk = ? AND sk = ?");
             PreparedStatement put = c.prepareStatement("SELECT pk, sk::text, item FROM " + check + " WHERE pk = ? AND sk = ?")) {
            same = LoadCheck.samplesMatch(storage.tables(), ACCOUNT, TABLE, SCHEMA, sample, i -> item(i),
                    i -> Row.of(item(i)).json(), i -> row(bulk, Row.of(item(i))), i -> row(put, Row.of(item(i))), "loaded");
        }
        LoadCheck.snapshotMatches(storage.snapshots(), ACCOUNT, TABLE, items, i -> Row.of(item(i)).json());
        System.out.printf(Locale.ROOT, "verified: %d sampled loaded rows identical (pk, sk::text, item) to putItem's rows; "
                + "getItem equal; snapshot of all %,d items in key order, first/last 1000 equal%n", same, items);
    }


    private static String[] row(PreparedStatement q, Row key) throws SQLException {
        q.setString(1, key.pk());
        q.setBigDecimal(2, key.sk());
        try (ResultSet rs = q.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            return new String[] {rs.getString(1), rs.getString(2), rs.getString(3)};
        }
    }

    // ------------------------------------------------------------------------------------------
    // (1) Throughput

    /** Sink so the JIT cannot drop the reads. */
    static volatile long sink;

    /** CPU seconds of the last psql run (user + sys), set by {@link #psql}. */
    private static double clientCpuOverride;

    private static void throughput(PostgresStorage storage, String relation, int items, int runs) throws Exception {
        String rawSql = "SELECT item FROM " + relation + " ORDER BY pk, sk";
        String copySql = "COPY (" + rawSql + ") TO STDOUT";
        try (Connection c = databases.dataSession(Layout.SHARED); Statement s = c.createStatement()) {
            System.out.println("plan of " + rawSql + " (raw JDBC, COPY):");
            printPlan(s, "EXPLAIN " + rawSql);
            c.setAutoCommit(false);
            System.out.println("plan of the snapshot's cursor (DECLARE ... NO SCROLL CURSOR FOR " + rawSql + "):");
            printPlan(s, "EXPLAIN DECLARE x NO SCROLL CURSOR FOR " + rawSql);
            c.rollback();
        }
        boolean psql = psqlAvailable();
        Map<String, ScanRounds.Scan> scans = new LinkedHashMap<>();
        Connection raw = databases.dataSession(Layout.SHARED);
        Connection copy = databases.dataSession(Layout.SHARED);
        scans.put("a", () -> rawScan(raw, rawSql, 1000));
        scans.put("a2", () -> rawCursor(raw, rawSql, 1000));
        scans.put("b", () -> SnapshotDrain.drain(storage.snapshots(), ACCOUNT, TABLE, StoredKeys.OMITTED,
                SnapshotDrain.Take.STORED_BYTES, 0));
        scans.put("b3", () -> stream(storage, TABLE, false, 0));
        // A second engine's pool: connections made now, which have read nothing yet (a backend's first
        // scans run slower on FETCH, BENCHMARKS.md "A fresh connection's FETCHes").
        PostgresStorage second = PostgresStorage.open(config(Layout.SHARED));
        scans.put("b4", () -> SnapshotDrain.drain(second.snapshots(), ACCOUNT, TABLE, StoredKeys.OMITTED,
                SnapshotDrain.Take.STORED_BYTES, 0));
        scans.put("c", () -> stream(storage, TABLE, true, 0));
        scans.put("d", () -> copyOut(copy, copySql));
        if (psql) {
            long rows = psqlCount(copySql);
            if (rows != items) {
                throw new IllegalStateException("psql COPY wrote " + rows + " lines, expected " + items);
            }
            scans.put("e", () -> psql(copySql, items));
        }
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("a", "(a)  raw JDBC: SELECT item ... ORDER BY pk, sk, fetchSize 1000, getString");
        labels.put("a2", "(a2) raw JDBC: DECLARE cursor, FETCH FORWARD 1000 (the adapter's protocol until 2026-12-02)");
        labels.put("b", "(b)  snapshot stream, the stored bytes (export path: storedBytes())");
        labels.put("b3", "(b3) as (b), json() per item (a String made)");
        labels.put("b4", "(b4) as (b), from a second engine's pool (connections new to the run)");
        labels.put("c", "(c)  snapshot stream, item() decoded");
        labels.put("d", "(d)  COPY (SELECT ... ORDER BY) TO STDOUT, pgjdbc CopyManager -> null sink");
        labels.put("e", "(e)  psql -c 'COPY (SELECT ... ORDER BY) TO STDOUT' > /dev/null");
        System.out.println();
        Map<String, List<double[]>> times = ScanRounds.run(scans, runs, scan -> timed(scan, items), (r, k, t) ->
                System.out.printf(Locale.ROOT, "  round %d %-3s wall %7.3f s  client cpu %6.2f s  server cpu %6.2f s   "
                        + "(load average %s)%n", r, k, t[0], t[1], t[2], loadAverage()));
        raw.close();
        copy.close();
        second.close();
        System.out.println();
        System.out.printf(Locale.ROOT, "%,d items, %d runs each; wall = elapsed; cpu = client (JVM, or psql) + server "
                + "(every process of the postmaster), best run by each%n", items, runs);
        System.out.printf(Locale.ROOT, "%-80s %9s %9s %12s %9s %9s   %s%n", "", "best wall", "med. wall", "items/s",
                "best cpu", "(client)", "all runs wall (s)");
        Map<String, ScanRounds.Figures> figures = ScanRounds.summary(labels, times, t -> t[1] + t[2], 80,
                "not available (psql missing or cannot connect)", (label, ts, f) -> System.out.printf(Locale.ROOT,
                        "%-80s %9.3f %9.3f %,12.0f %9.2f %9.2f   %s%n", label, f.bestWall(), f.medianWall(),
                        items / f.bestWall(), f.bestCpu(), ScanRounds.Figures.of(ts, t -> t[1]).bestCpu(),
                        ScanRounds.column(ts, 0).trim()));
        System.out.println();
        System.out.println("ratios of items/s (x/y = time(y)/time(x)):     best wall   median wall   best cpu");
        ratio("(b)/(d) stream / COPY (pgjdbc)", figures, "b", "d", 0.7);
        if (figures.containsKey("e")) {
            ratio("(b)/(e) stream / COPY (psql)", figures, "b", "e", 0.7);
        }
        ratio("(b3)/(d) stream json() / COPY (pgjdbc)", figures, "b3", "d", Double.NaN);
        ratio("(b4)/(d) stream, new connections / COPY (pgjdbc)", figures, "b4", "d", Double.NaN);
        ratio("(c)/(d) decoded stream / COPY (pgjdbc)", figures, "c", "d", Double.NaN);
        ratio("(a)/(d) raw JDBC / COPY (pgjdbc)", figures, "a", "d", Double.NaN);
        ratio("(b)/(a) stream / raw JDBC", figures, "b", "a", Double.NaN);
        ratio("(b)/(a2) stream / raw cursor protocol", figures, "b", "a2", Double.NaN);
        ratio("(c)/(a) decoded stream / raw JDBC", figures, "c", "a", Double.NaN);
        if (figures.containsKey("e")) {
            ratio("(d)/(e) COPY pgjdbc / COPY psql", figures, "d", "e", Double.NaN);
        }
    }

    private static void printPlan(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                System.out.println("    " + rs.getString(1));
            }
        }
    }

    private static void ratio(String name, Map<String, ScanRounds.Figures> figures, String x, String y, double target) {
        double[] r = figures.get(x).ratioTo(figures.get(y));
        double b = r[0];
        double m = r[1];
        double c = r[2];
        String verdict = Double.isNaN(target) ? "" : String.format(Locale.ROOT, "   target >= %.2f: %s (best wall), %s (median wall)",
                target, b >= target ? "MET" : "MISSED", m >= target ? "MET" : "MISSED");
        System.out.printf(Locale.ROOT, "  %-44s %9.2f %13.2f %10.2f%s%n", name, b, m, c, verdict);
    }

    /** {wall s, client cpu s, server cpu s} of one scan; fails when it did not read every item. */
    private static double[] timed(ScanRounds.Scan scan, int items) throws Exception {
        clientCpuOverride = -1;
        long cpu0 = OS.getProcessCpuTime();
        double server0 = serverCpu();
        long start = System.nanoTime();
        long n = scan.run();
        double t = (System.nanoTime() - start) / 1e9;
        double cpu = (OS.getProcessCpuTime() - cpu0) / 1e9;
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // an exited backend (psql's) reaped, so counted
        double server = serverCpu() - server0;
        if (n != items) {
            throw new IllegalStateException("a scan read " + n + " items, expected " + items);
        }
        return new double[] {t, clientCpuOverride >= 0 ? clientCpuOverride : cpu, server};
    }

    private static long rawScan(Connection c, String sql, int fetchSize) throws SQLException {
        long n = 0;
        long chars = 0;
        c.setAutoCommit(false); // pgjdbc streams with a fetch size only inside a transaction
        try (Statement s = c.createStatement()) {
            s.setFetchSize(fetchSize);
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    chars += rs.getString(1).length();
                    n++;
                }
            }
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
        sink += chars;
        return n;
    }

    /** The adapter's read protocol over plain JDBC: a REPEATABLE READ cursor, one FETCH FORWARD per page. */
    private static long rawCursor(Connection c, String sql, int rows) throws SQLException {
        long n = 0;
        long chars = 0;
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            s.execute("DECLARE raw_cursor NO SCROLL CURSOR FOR " + sql);
            while (true) {
                int got = 0;
                try (ResultSet rs = s.executeQuery("FETCH FORWARD " + rows + " FROM raw_cursor")) {
                    while (rs.next()) {
                        chars += rs.getString(1).length();
                        got++;
                    }
                }
                n += got;
                if (got < rows) {
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

    private static long copyOut(Connection c, String copySql) throws SQLException, IOException {
        return c.unwrap(PGConnection.class).getCopyAPI().copyOut(copySql, OutputStream.nullOutputStream());
    }

    /** Drains a snapshot of {@code table}; with {@code perSecond} > 0, paced to that many items a second. */
    static long stream(PostgresStorage storage, String table, boolean decode, int perSecond) {
        return SnapshotDrain.drain(storage.snapshots(), ACCOUNT, table, decode, perSecond);
    }

    private static String[] psqlCommand(String sql) {
        String url = databases.dataDatabase(Layout.SHARED).database().jdbcUrl();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("jdbc:postgresql://([^:/]+)(?::(\\d+))?/([^?]+).*")
                .matcher(url);
        if (!m.matches()) {
            throw new IllegalStateException("cannot parse " + url);
        }
        return new String[] {"psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", m.group(1), "-p",
                m.group(2) == null ? "5432" : m.group(2), "-U", databases.dataDatabase(Layout.SHARED).database().user(),
                "-d", m.group(3), "-c", sql};
    }

    private static ProcessBuilder psqlProcess(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command);
        String password = databases.dataDatabase(Layout.SHARED).database().password();
        if (password != null && !password.isEmpty()) {
            pb.environment().put("PGPASSWORD", password);
        }
        return pb;
    }

    private static boolean psqlAvailable() {
        try {
            Process p = psqlProcess(List.of(psqlCommand("SELECT 1"))).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            boolean ok = p.waitFor() == 0;
            Process v = new ProcessBuilder("psql", "--version").redirectErrorStream(true).start();
            String version = new String(v.getInputStream().readAllBytes()).trim();
            v.waitFor();
            System.out.println(ok ? "psql: " + version + " connects" : "psql cannot connect: " + out);
            return ok;
        } catch (IOException | InterruptedException e) {
            System.out.println("psql: not available (" + e.getMessage() + ")");
            return false;
        }
    }

    private static long psqlCount(String copySql) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", "\"$@\" | wc -l", "psql-count"));
        cmd.addAll(List.of(psqlCommand(copySql)));
        Process p = psqlProcess(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        p.waitFor();
        return Long.parseLong(out);
    }

    /** psql writing the COPY to /dev/null under bash's {@code time}, for its CPU seconds. */
    private static long psql(String copySql, long items) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", "TIMEFORMAT='%U %S'; time \"$@\" > /dev/null", "psql-copy"));
        cmd.addAll(List.of(psqlCommand(copySql)));
        Process p = psqlProcess(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes()).trim();
        int rc = p.waitFor();
        if (rc != 0) {
            throw new IllegalStateException("psql exited with " + rc + ": " + err);
        }
        String[] lines = err.split("\n");
        String[] userSys = lines[lines.length - 1].trim().split(" ");
        clientCpuOverride = Double.parseDouble(userSys[0]) + Double.parseDouble(userSys[1]);
        return items;
    }

    /** CPU seconds of the server so far: the postmaster, its reaped children, and its live children. */
    private static double serverCpu() {
        if (postmaster <= 0) {
            return 0;
        }
        String[] pm = procStat(postmaster);
        if (pm == null) {
            return 0;
        }
        long ticks = Long.parseLong(pm[11]) + Long.parseLong(pm[12]) + Long.parseLong(pm[13]) + Long.parseLong(pm[14]);
        try (var dirs = Files.list(Path.of("/proc"))) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                String name = d.getFileName().toString();
                if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
                    continue;
                }
                String[] st = procStat(Long.parseLong(name));
                if (st != null && Long.parseLong(st[1]) == postmaster) {
                    ticks += Long.parseLong(st[11]) + Long.parseLong(st[12]);
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return ticks / 100.0; // USER_HZ
    }

    /** /proc/PID/stat fields after the command name: [0] state, [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime. */
    private static String[] procStat(long pid) {
        try {
            String s = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return s.substring(s.lastIndexOf(')') + 2).split(" ");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }


    // ------------------------------------------------------------------------------------------
    // (2) Heap

    private static void heap(PostgresStorage storage, int items, int small, String childHeap) throws Exception {
        System.out.println();
        System.out.printf(Locale.ROOT, "(2) heap while streaming, in this JVM (max heap %d MiB; load average %s):%n",
                Runtime.getRuntime().maxMemory() >> 20, loadAverage());
        StreamHeap.inThisJvm((table, decode) -> stream(storage, table, decode, 0), SMALL_TABLE, small, TABLE, items);
        System.out.printf(Locale.ROOT, "heap bound: each drain (json() then item()) again in a child JVM with -Xmx%s:%n", childHeap);
        PostgresConfig.Database db = databases.dataDatabase(Layout.SHARED).database();
        for (String table : new String[] {SMALL_TABLE, TABLE}) {
            int expect = table.equals(TABLE) ? items : small;
            StreamHeap.childJvm(childHeap, List.of("-Dorg.jooq.no-logo=true", "-Dorg.jooq.no-tips=true",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"), PgSnapshotBench.class,
                    List.of("--heap-child", table, "--expect", Integer.toString(expect), "--url", db.jdbcUrl(),
                            "--user", db.user(), "--password", db.password().isEmpty() ? "-" : db.password()), expect);
        }
    }

    private static void heapChild(Map<String, String> opt) throws Exception {
        String password = opt.get("password").equals("-") ? "" : opt.get("password");
        PostgresConfig config = PostgresConfig.shared(new PostgresConfig.Database(opt.get("url"), opt.get("user"), password))
                .withControlPlaneDelay(Duration.ZERO);
        String table = opt.get("heap-child");
        int expect = Integer.parseInt(opt.get("expect"));
        try (PostgresStorage storage = PostgresStorage.open(config)) {
            StreamHeap.inChild((t, decode) -> stream(storage, t, decode, 0), table, expect);
        }
    }

    // ------------------------------------------------------------------------------------------
    // (3) Deferred-drop latency after a release

    /** A table as the DeleteTable tests make it: pk S, sk N, a GSI and an LSI (three relations), ten items. */
    private static TableDescription smallTable(TableOperations tables, String label) {
        String name = Tables.uniqueName(label);
        TableDescription d = Tables.createActive(tables, Tables.withIndexes(name));
        for (int i = 0; i < 10; i++) {
            tables.putItem(Tables.ACCOUNT, name, Tables.item("p" + i, i, "g" + i, "l" + i));
        }
        return d;
    }

    private static boolean catalogRowExists(Connection catalog, String tableId) throws SQLException {
        try (PreparedStatement ps = catalog.prepareStatement("SELECT 1 FROM sp_tables WHERE table_id = ?")) {
            ps.setString(1, tableId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Polls the catalog row every {@code 2 ms} until it is gone; ms from {@code since}. */
    private static double awaitRowGone(Connection catalog, String tableId, long since) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (catalogRowExists(catalog, tableId)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("table " + tableId + " still has its catalog row 30 s after the release");
            }
            LockSupport.parkNanos(2_000_000);
        }
        return (System.nanoTime() - since) / 1e6;
    }

    private static void deferredDrops(Layout layout, int samples) throws Exception {
        System.out.println();
        System.out.printf(Locale.ROOT, "(3) deferred-drop latency, %s layout: %d samples each; hold, DeleteTable (DELETING), "
                + "a random 0-1000 ms, release, then poll the catalog row every 2 ms (load average %s)%n",
                layout, samples, loadAverage());
        SplittableRandom random = new SplittableRandom(42 + layout.ordinal());
        // Pages of 2 rows: the 10-item table's snapshot stays open (streaming) after its first page,
        // as PostgresDeleteTableTest.p8 does; with the default page the first FETCH drains it.
        try (PostgresStorage storage = PostgresStorage.open(config(layout).withPageBudget(new PageBudget(2, 1 << 20)));
             Connection catalog = databases.catalogDatabase(layout).connect()) {
            TableOperations tables = storage.tables();
            for (String kind : List.of("snapshot", "reader")) {
                double[] ms = new double[samples];
                int synchronous = 0;
                for (int i = 0; i < samples; i++) {
                    TableDescription d = smallTable(tables, "drop");
                    TableSnapshot snapshot = null;
                    Connection reader = null;
                    if (kind.equals("snapshot")) {
                        snapshot = storage.snapshots().openTableSnapshot(Tables.ACCOUNT, d.tableName());
                        snapshot.items().hasNext();
                    } else {
                        reader = Sessions.reader(databases, layout, "d_" + d.tableId());
                    }
                    tables.deleteTable(Tables.ACCOUNT, d.tableName()); // answers DELETING either way, as DynamoDB does
                    if (!catalogRowExists(catalog, d.tableId())) {
                        synchronous++;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(1001)));
                    long released = System.nanoTime();
                    if (snapshot != null) {
                        snapshot.close();
                    } else {
                        Sessions.release(reader);
                    }
                    ms[i] = awaitRowGone(catalog, d.tableId(), released);
                    if (!Sessions.relationsOf(databases, layout, d.tableId()).isEmpty()) {
                        throw new IllegalStateException("relations of " + d.tableId() + " left after its row went");
                    }
                }
                double target = kind.equals("snapshot") ? 200 : 1100;
                double p95 = percentile(ms, 0.95);
                System.out.printf(Locale.ROOT, "  %-8s after a %-42s p50 %7.1f  p95 %7.1f  max %7.1f ms   target p95 <= %.0f ms: %s"
                                + "%s   (load average %s)%n", layout, kind.equals("snapshot")
                                ? "snapshot's release (wakes the poller):" : "plain reader's release (no wake, 1 s loop):",
                        percentile(ms, 0.5), p95, max(ms), target, p95 <= target ? "MET" : "MISSED",
                        synchronous == 0 ? "" : " (" + synchronous + " DeleteTables dropped at once: not a deferred drop!)",
                        loadAverage());
                System.out.println("           all (ms): " + join(ms));
            }
        }
    }

    static double percentile(double[] values, double p) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s[Math.max(0, (int) Math.ceil(p * s.length) - 1)];
    }

    static double max(double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }

    private static String join(double[] ms) {
        StringBuilder b = new StringBuilder();
        for (double m : ms) {
            b.append(String.format(Locale.ROOT, "%.0f ", m));
        }
        return b.toString().trim();
    }

    // ------------------------------------------------------------------------------------------
    // (4) Twenty concurrent DeleteTables on a ten-connection pool, readers on ten of the tables

    private static void twentyDeletes(Layout layout, int repeats) throws Exception {
        System.out.println();
        System.out.printf(Locale.ROOT, "(4) 20 concurrent DeleteTables, pool of 10 (catalog pool 10 on the separate layout), "
                + "plain readers on 10 of the tables, %s layout, %d repeats (load average %s)%n", layout, repeats, loadAverage());
        try (PostgresStorage storage = PostgresStorage.open(config(layout).withPoolSizes(10, 10))) {
            TableOperations tables = storage.tables();
            for (int rep = 1; rep <= repeats; rep++) {
                List<TableDescription> all = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    all.add(smallTable(tables, "p9"));
                }
                List<Connection> readers = new ArrayList<>();
                double wall;
                double slowest;
                int deferred = 0;
                int gone = 0;
                Set<String> orphansAfter;
                try {
                    for (int i = 0; i < 10; i++) {
                        readers.add(Sessions.reader(databases, layout, "d_" + all.get(i).tableId()));
                    }
                    CountDownLatch go = new CountDownLatch(1);
                    List<CompletableFuture<Double>> deletes = new ArrayList<>();
                    long[] startAt = new long[1];
                    for (TableDescription d : all) {
                        deletes.add(CompletableFuture.supplyAsync(() -> {
                            await(go);
                            tables.deleteTable(Tables.ACCOUNT, d.tableName()); // DELETING, dropped or deferred
                            return (System.nanoTime() - startAt[0]) / 1e6;
                        }, threads));
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // every caller waiting at the latch
                    startAt[0] = System.nanoTime();
                    go.countDown();
                    CompletableFuture.allOf(deletes.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
                    wall = (System.nanoTime() - startAt[0]) / 1e6;
                    slowest = 0;
                    for (CompletableFuture<Double> f : deletes) {
                        slowest = Math.max(slowest, f.get());
                    }
                    for (TableDescription d : all) {
                        if (!Tables.exists(tables, d.tableName())) {
                            gone++;
                        } else {
                            deferred++;
                        }
                    }
                    orphansAfter = Orphans.find(databases, layout);
                } finally {
                    for (Connection r : readers) {
                        Sessions.release(r);
                    }
                }
                for (TableDescription d : all) {
                    Tables.awaitGone(tables, d.tableName(), Duration.ofSeconds(30));
                }
                Set<String> orphansEnd = Orphans.find(databases, layout);
                System.out.printf(Locale.ROOT, "  %-8s repeat %d: all 20 returned in %6.0f ms (slowest call %6.0f ms)   "
                                + "target <= 500 ms: %s; %d deferred (DELETING), %d dropped at once; orphans right after %d, "
                                + "after all gone %d   (load average %s)%n", layout, rep, wall, slowest,
                        wall <= 500 ? "MET" : "MISSED", deferred, gone, orphansAfter.size(), orphansEnd.size(), loadAverage());
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------------------------------
    // (5) PutItem latency at 200 puts/s, with and without 20 streaming snapshots

    /** Latencies of one phase of puts: from the scheduled time (response) and from the call (service), in ms. */
    record PutPhase(double[] response, double[] service) {
        static PutPhase pooled(List<PutPhase> phases) {
            return new PutPhase(phases.stream().flatMapToDouble(p -> Arrays.stream(p.response)).toArray(),
                    phases.stream().flatMapToDouble(p -> Arrays.stream(p.service)).toArray());
        }
    }

    private static void putLatency(int seconds) throws Exception {
        int rate = 200;
        int snapshots = 20;
        int paced = 2000;
        int pool = 2 * snapshots + 4; // permits are half the data pool: 22 permits, 22 connections left for requests
        System.out.println();
        System.out.printf(Locale.ROOT, "(5) PutItem latency at %d puts/s, %d s per phase (one caller thread, each put "
                        + "scheduled 5 ms after the previous one's schedule; response = completion - scheduled time, service = "
                        + "completion - call), SHARED layout, pool %d (%d snapshot permits); the snapshots stream the %s table "
                        + "in a loop (paced ones started staggered over 0.5 s), puts go to %s; phases alternate without / "
                        + "idle / paced, then unthrottled (load average %s)%n",
                rate, seconds, pool, pool / 2, SMALL_TABLE, PUT_TABLE, loadAverage());
        try (PostgresStorage storage = PostgresStorage.open(config(Layout.SHARED).withPoolSizes(pool, 10))) {
            AtomicLong next = new AtomicLong(10_000_000); // item numbers: fresh keys, away from the loaded ones
            puts(storage, rate, 5, next); // warm-up (JIT, pool)
            Map<String, List<PutPhase>> byCondition = new LinkedHashMap<>();
            String without = "without snapshots";
            String withPaced = "with 20 snapshots, each paced to " + paced + " items/s";
            String withIdle = "with 20 snapshots open, idle after 1st page";
            String withFull = "with 20 snapshots, unthrottled";
            List<String> order = List.of(without, withIdle, withPaced, without, withIdle, withPaced, without, withFull, without);
            for (String phase : order) {
                PutPhase result;
                String note;
                long cpu0 = OS.getProcessCpuTime();
                double server0 = serverCpu();
                long phaseStart = System.nanoTime();
                if (phase.equals(without)) {
                    result = puts(storage, rate, seconds, next);
                    note = "";
                } else {
                    int perSecond = phase.equals(withPaced) ? paced : phase.equals(withIdle) ? -1 : 0;
                    AtomicBoolean stop = new AtomicBoolean();
                    AtomicLong streamed = new AtomicLong();
                    AtomicLong open = new AtomicLong();
                    List<CompletableFuture<Void>> streams = new ArrayList<>();
                    for (int i = 0; i < snapshots; i++) {
                        // Paced streams start staggered over one page's period (1000 rows at perSecond), so
                        // their FETCHes do not fall due at the same instants (phase-locked bursts).
                        long stagger = perSecond > 0 ? i * (1000L * 1_000_000_000L / perSecond) / snapshots : 0;
                        streams.add(CompletableFuture.runAsync(() -> {
                            LockSupport.parkNanos(stagger);
                            while (!stop.get()) {
                                open.incrementAndGet();
                                try {
                                    streamUntil(storage, SMALL_TABLE, perSecond, stop, streamed);
                                } finally {
                                    open.decrementAndGet();
                                }
                            }
                        }, threads));
                    }
                    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(2)); // every stream open and going (stagger <= 0.5 s)
                    long before = streamed.get();
                    long openAtStart = open.get();
                    long t0 = System.nanoTime();
                    result = puts(storage, rate, seconds, next);
                    double secs = (System.nanoTime() - t0) / 1e9;
                    note = String.format(Locale.ROOT, "; %d snapshots open, %,.0f items/s streamed in total", openAtStart,
                            (streamed.get() - before) / secs);
                    stop.set(true);
                    CompletableFuture.allOf(streams.toArray(new CompletableFuture<?>[0])).get(120, TimeUnit.SECONDS);
                }
                double wall = (System.nanoTime() - phaseStart) / 1e9;
                note += String.format(Locale.ROOT, "; CPU over the phase: JVM %.0f%%, server %.0f%% of one core",
                        100 * (OS.getProcessCpuTime() - cpu0) / 1e9 / wall, 100 * (serverCpu() - server0) / wall);
                byCondition.computeIfAbsent(phase, k -> new ArrayList<>()).add(result);
                System.out.printf(Locale.ROOT, "  phase %-40s response p50 %7.2f p95 %8.2f max %8.2f | service p50 %5.2f "
                                + "p95 %6.2f ms (%d puts%s; load average %s)%n", phase, percentile(result.response(), 0.5),
                        percentile(result.response(), 0.95), max(result.response()), percentile(result.service(), 0.5),
                        percentile(result.service(), 0.95), result.response().length, note, loadAverage());
            }
            System.out.println("  pooled by condition:");
            PutPhase base = PutPhase.pooled(byCondition.get(without));
            for (Map.Entry<String, List<PutPhase>> e : byCondition.entrySet()) {
                PutPhase p = PutPhase.pooled(e.getValue());
                String ratio = "";
                if (!e.getKey().equals(without)) {
                    double r50 = percentile(p.response(), 0.5) / percentile(base.response(), 0.5);
                    double r95 = percentile(p.response(), 0.95) / percentile(base.response(), 0.95);
                    ratio = String.format(Locale.ROOT, "   ratio to without: p50 %.2f, p95 %.2f; target <= 1.10: p50 %s, p95 %s",
                            r50, r95, r50 <= 1.1 ? "MET" : "MISSED", r95 <= 1.1 ? "MET" : "MISSED");
                }
                System.out.printf(Locale.ROOT, "  %-46s response p50 %7.2f p95 %8.2f | service p50 %5.2f p95 %6.2f ms "
                                + "(%d puts)%s%n", e.getKey(), percentile(p.response(), 0.5), percentile(p.response(), 0.95),
                        percentile(p.service(), 0.5), percentile(p.service(), 0.95), p.response().length, ratio);
            }
        }
    }

    /**
     * Drains one snapshot of {@code table}, paced to {@code perSecond} (0: as fast as it comes; -1: the
     * first item only, then the snapshot stays open, idle), until drained or stopped.
     */
    private static void streamUntil(PostgresStorage storage, String table, int perSecond, AtomicBoolean stop,
                                    AtomicLong streamed) {
        long n = 0;
        long acc = 0;
        long start = System.nanoTime();
        try (TableSnapshot s = storage.snapshots().openTableSnapshot(ACCOUNT, table)) {
            var items = s.items();
            if (perSecond < 0) {
                acc += items.next().json().length();
                streamed.incrementAndGet();
                while (!stop.get()) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
                sink += acc;
                return;
            }
            while (items.hasNext() && !stop.get()) {
                acc += items.next().json().length();
                n++;
                if (n % 100 == 0) {
                    streamed.addAndGet(100);
                    if (perSecond > 0) {
                        long wait = start + n * 1_000_000_000L / perSecond - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        }
                    }
                }
            }
        }
        streamed.addAndGet(n % 100);
        sink += acc;
    }

    /** PutItem at {@code rate} a second for {@code seconds}, each call at its scheduled time (or at once when late). */
    private static PutPhase puts(PostgresStorage storage, int rate, int seconds, AtomicLong next) {
        int n = rate * seconds;
        double[] response = new double[n];
        double[] service = new double[n];
        long period = 1_000_000_000L / rate;
        long start = System.nanoTime() + 1_000_000;
        for (int i = 0; i < n; i++) {
            long due = start + i * period;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            Item item = item((int) next.getAndIncrement());
            long called = System.nanoTime();
            storage.tables().putItem(ACCOUNT, PUT_TABLE, item);
            long done = System.nanoTime();
            response[i] = (done - due) / 1e6;
            service[i] = (done - called) / 1e6;
        }
        return new PutPhase(response, service);
    }

    // ------------------------------------------------------------------------------------------
    // (6) Open-and-delete races

    private static void races(Layout layout, int races) throws Exception {
        System.out.println();
        System.out.printf(Locale.ROOT, "(6) %d open-and-delete races, %s layout (as PostgresDeleteTableTest.p7: a table with "
                + "a GSI and an LSI, page budget 2 rows; open and DeleteTable released by one latch); orphans checked "
                + "after every race (load average %s)%n", races, layout, loadAverage());
        int synchronous = 0;
        int deferred = 0;
        Map<String, Integer> opens = new TreeMap<>();
        Set<String> orphansSeen = new TreeSet<>();
        long start = System.nanoTime();
        try (PostgresStorage storage = PostgresStorage.open(config(layout).withPageBudget(new PageBudget(2, 1 << 20)))) {
            TableOperations tables = storage.tables();
            List<String> names = new ArrayList<>();
            double[] createMs = new double[races];
            double[] openMs = new double[races];
            double[] deleteMs = new double[races];
            for (int i = 0; i < races; i++) {
                long created = System.nanoTime();
                TableDescription d = smallTable(tables, "race");
                createMs[i] = (System.nanoTime() - created) / 1e6;
                names.add(d.tableName());
                CountDownLatch go = new CountDownLatch(1);
                long[] goAt = new long[1];
                double[] took = new double[2];
                CompletableFuture<TableSnapshot> open = CompletableFuture.supplyAsync(() -> {
                    await(go);
                    try {
                        return storage.snapshots().openTableSnapshot(Tables.ACCOUNT, d.tableName());
                    } finally {
                        took[0] = (System.nanoTime() - goAt[0]) / 1e6;
                    }
                }, threads);
                CompletableFuture<TableDescription> delete = CompletableFuture.supplyAsync(() -> {
                    await(go);
                    try {
                        return tables.deleteTable(Tables.ACCOUNT, d.tableName());
                    } finally {
                        took[1] = (System.nanoTime() - goAt[0]) / 1e6;
                    }
                }, threads);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // both callers at the latch
                goAt[0] = System.nanoTime();
                go.countDown();
                TableSnapshot snapshot = null;
                try {
                    snapshot = open.get(30, TimeUnit.SECONDS);
                    snapshot.items().hasNext();
                    opens.merge("opened", 1, Integer::sum);
                } catch (ExecutionException e) {
                    String reason = e.getCause() instanceof StorageException se ? se.reason().name() : e.getCause().toString();
                    opens.merge("refused " + reason, 1, Integer::sum);
                }
                delete.get(30, TimeUnit.SECONDS);
                openMs[i] = took[0];
                deleteMs[i] = took[1];
                if (Tables.exists(tables, d.tableName())) {
                    deferred++;
                } else {
                    synchronous++;
                }
                orphansSeen.addAll(Orphans.find(databases, layout));
                if (snapshot != null) {
                    snapshot.close();
                }
            }
            for (String name : names) {
                Tables.awaitGone(tables, name, Duration.ofSeconds(30));
            }
            Set<String> orphansEnd = Orphans.find(databases, layout);
            System.out.printf(Locale.ROOT, "  %-8s %d races in %.0f s: DeleteTable synchronous %d, deferred %d; opens %s; "
                            + "orphans seen after any race %d, after all gone %d   target 0: %s   (load average %s)%n",
                    layout, races, (System.nanoTime() - start) / 1e9, synchronous, deferred, opens, orphansSeen.size(),
                    orphansEnd.size(), orphansSeen.isEmpty() && orphansEnd.isEmpty() ? "MET" : "MISSED " + orphansSeen,
                    loadAverage());
            System.out.printf(Locale.ROOT, "  %-8s per race, p50 / p95 / max ms: create table + 10 puts %.0f / %.0f / %.0f; "
                            + "open returned %.1f / %.1f / %.1f; DeleteTable returned %.1f / %.1f / %.1f (from the latch); "
                            + "%d DeleteTables took >= 900 ms (a DROP that waited out the 1 s budget behind the snapshot's "
                            + "lock, then deferred)%n",
                    layout, percentile(createMs, 0.5), percentile(createMs, 0.95), max(createMs), percentile(openMs, 0.5),
                    percentile(openMs, 0.95), max(openMs), percentile(deleteMs, 0.5), percentile(deleteMs, 0.95), max(deleteMs),
                    Arrays.stream(deleteMs).filter(ms -> ms >= 900).count());
        }
    }
}
