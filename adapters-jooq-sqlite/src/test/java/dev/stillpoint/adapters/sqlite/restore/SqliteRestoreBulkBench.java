package dev.stillpoint.adapters.sqlite.restore;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.storage.KeyCodec;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.DynamoNumber;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.properties.bench.BenchItems;
import dev.stillpoint.properties.bench.RestoreBenchSide;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Restore through the bulk path [B1] beside SQLite's own bulk load of the same rows and index entries
 * (issue 30): N items of ~400 bytes ({@link BenchItems}), key (pk S, sk N), one GSI on {@code email} (S),
 * every item in it, in one database file (WAL, synchronous NORMAL, as the engine opens it). The restore
 * side: {@code begin}, writes of 500 items (the CLI's batch), {@code complete}; the items are in memory
 * before the clock starts. The native side: tables made as the restored relations are (the same CREATE
 * TABLE and CREATE INDEX text from {@code sqlite_master}), then plain JDBC in ONE transaction: one
 * prepared INSERT per relation reused for every row, the rows (keys already in the engine's byte encoding,
 * the item JSON already made) prepared before the clock starts. Rounds alternate which side goes first.
 */
public final class SqliteRestoreBulkBench {

    private static final String ACCOUNT = "000000000000";

    private SqliteRestoreBulkBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Files.createTempDirectory(args.length > 2 ? Path.of(args[2]) : Path.of(System.getProperty("java.io.tmpdir")),
                "restore-bench");
        List<Item> items = new ArrayList<>(n);
        List<Object[]> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Item item = BenchItems.item(i);
            items.add(item);
            rows.add(new Object[] {KeyCodec.encodeString(((AttributeValue.S) item.get("pk")).value()),
                    KeyCodec.encodeNumber(DynamoNumber.value(((AttributeValue.N) item.get("sk")).text())),
                    ItemJson.encode(item), KeyCodec.encodeString(((AttributeValue.S) item.get("email")).value())});
        }
        System.out.printf(Locale.ROOT, "SqliteRestoreBulkBench: %d items, one GSI, %d rounds; load average %s%n", n, rounds,
                RestoreBenchSide.loadAverage());
        double best = 0;
        for (int round = 1; round <= rounds; round++) {
            Path file = dir.resolve("round-" + round + ".db");
            double restore;
            double jdbc;
            try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO))) {
                if (round % 2 == 1) {
                    restore = RestoreBenchSide.restore(storage, items, "restored");
                    jdbc = jdbc(storage, file, rows);
                } else {
                    jdbc = jdbc(storage, file, rows);
                    restore = RestoreBenchSide.restore(storage, items, "restored");
                }
            }
            for (String suffix : List.of("", "-wal", "-shm")) {
                Files.deleteIfExists(Path.of(file + suffix));
            }
            double ratio = jdbc / restore;
            best = Math.max(best, ratio);
            System.out.printf(Locale.ROOT, "round %d: restore %.2f s (%,.0f items/s) | JDBC one transaction %.2f s (%,.0f rows/s)"
                    + " | restore / native %.2f (load average %s)%n", round, restore, n / restore, jdbc, n / jdbc, ratio,
                    RestoreBenchSide.loadAverage());
        }
        System.out.printf(Locale.ROOT, "restore / native bulk load, SQLite, %d items, one GSI: best %.2f (target >= 0.5)%n", n, best);
        Files.deleteIfExists(dir);
    }

    private static double jdbc(SqliteStorage storage, Path file, List<Object[]> rows) throws Exception {
        storage.tables().createTable(RestoreBenchSide.definition("model"));
        dev.stillpoint.core.TableWaiter.awaitActive(storage.tables(), ACCOUNT, "model", Duration.ofSeconds(60));
        String id = storage.tables().describeTable(ACCOUNT, "model").tableId();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA synchronous = NORMAL");
                List<String> ddl = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("SELECT sql FROM sqlite_master WHERE name GLOB 'd_" + id + "*' AND sql IS NOT NULL")) {
                    while (rs.next()) {
                        ddl.add(rs.getString(1).replace("d_" + id, "native_" + id));
                    }
                }
                for (String sql : ddl) {
                    s.execute(sql);
                }
            }
            long start = System.nanoTime();
            c.setAutoCommit(false);
            try (PreparedStatement base = c.prepareStatement("INSERT INTO \"native_" + id + "\" (pk, sk, item) VALUES (?, ?, ?)");
                 PreparedStatement gsi = c.prepareStatement("INSERT INTO \"native_" + id + "__gsi__0\""
                         + " (pk, sk, base_pk, base_sk, item) VALUES (?, ?, ?, ?, ?)")) {
                byte[] absent = KeyCodec.absentSortKey();
                for (Object[] r : rows) {
                    base.setBytes(1, (byte[]) r[0]);
                    base.setBytes(2, (byte[]) r[1]);
                    base.setString(3, (String) r[2]);
                    base.executeUpdate();
                    gsi.setBytes(1, (byte[]) r[3]);
                    gsi.setBytes(2, absent);
                    gsi.setBytes(3, (byte[]) r[0]);
                    gsi.setBytes(4, (byte[]) r[1]);
                    gsi.setString(5, (String) r[2]);
                    gsi.executeUpdate();
                }
            }
            c.commit();
            return (System.nanoTime() - start) / 1e9;
        }
    }
}
