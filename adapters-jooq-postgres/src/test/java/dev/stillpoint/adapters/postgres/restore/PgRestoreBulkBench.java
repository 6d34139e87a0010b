package dev.stillpoint.adapters.postgres.restore;

import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.properties.bench.BenchItems;
import dev.stillpoint.properties.bench.RestoreBenchSide;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.postgresql.PGConnection;

/**
 * Restore through the bulk path [B1] beside PostgreSQL's own bulk load of the same rows and index entries
 * (issue 30): N items of ~400 bytes ({@link BenchItems}), key (pk S, sk N), one GSI on {@code email} (S),
 * every item in it. The restore side: {@code begin}, writes of 500 items (the CLI's batch), {@code complete};
 * the items are in memory before the clock starts (no export file is read). The native side, in the same
 * database: two tables made {@code LIKE} the restored relations {@code INCLUDING ALL} (same columns, keys,
 * indexes), {@code COPY (pk, sk, item) FROM STDIN} of the rows as text made before the clock starts, then
 * {@code INSERT ... SELECT} of the index entries from the item JSON, one transaction, as {@code psql \copy}
 * plus {@code INSERT ... SELECT} would. Rounds alternate which side goes first; prints every round, the
 * ratio (native time / restore time: the restore's speed as a fraction of the native load's) and the best.
 */
public final class PgRestoreBulkBench {

    private static final String ACCOUNT = RestoreBenchSide.ACCOUNT;

    private PgRestoreBulkBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<Item> items = new ArrayList<>(n);
        ByteArrayOutputStream rows = new ByteArrayOutputStream(n * 450);
        for (int i = 0; i < n; i++) {
            Item item = BenchItems.item(i);
            items.add(item);
            String line = ((AttributeValue.S) item.get("pk")).value() + "\t" + ((AttributeValue.N) item.get("sk")).text()
                    + "\t" + ItemJson.encode(item).replace("\\", "\\\\") + "\n";
            rows.writeBytes(line.getBytes(StandardCharsets.UTF_8));
        }
        byte[] copyText = rows.toByteArray();
        PgDatabases databases = PgDatabases.create("restorebench");
        try (PostgresStorage storage = PostgresStorage.open(databases.config(Layout.SHARED).withControlPlaneDelay(Duration.ZERO));
             Connection c = databases.dataSession(Layout.SHARED)) {
            try (ResultSet rs = c.createStatement().executeQuery("SELECT version(), current_setting('fsync'), "
                    + "current_setting('synchronous_commit')")) {
                rs.next();
                System.out.printf(Locale.ROOT, "PgRestoreBulkBench: %s; fsync %s, synchronous_commit %s; %d items, one GSI,"
                        + " %d rounds; load average %s%n", rs.getString(1).split(",")[0], rs.getString(2), rs.getString(3),
                        n, rounds, RestoreBenchSide.loadAverage());
            }
            double best = 0;
            for (int round = 1; round <= rounds; round++) {
                double restore;
                double copy;
                if (round % 2 == 1) {
                    restore = RestoreBenchSide.restore(storage, items, "restored_r" + round);
                    copy = copy(c, storage, copyText, "r" + round);
                } else {
                    copy = copy(c, storage, copyText, "r" + round);
                    restore = RestoreBenchSide.restore(storage, items, "restored_r" + round);
                }
                double ratio = copy / restore;
                best = Math.max(best, ratio);
                System.out.printf(Locale.ROOT, "round %d: restore %.2f s (%,.0f items/s) | COPY + INSERT ... SELECT %.2f s"
                        + " (%,.0f rows/s) | restore / native %.2f (load average %s)%n", round, restore, n / restore, copy,
                        n / copy, ratio, RestoreBenchSide.loadAverage());
            }
            System.out.printf(Locale.ROOT, "restore / native bulk load, PostgreSQL, %d items, one GSI: best %.2f (target >= 0.5)%n",
                    n, best);
        } finally {
            databases.close();
        }
    }

    /** The native load into tables made like a Stillpoint table's relations (one made for the purpose). */
    private static double copy(Connection c, PostgresStorage storage, byte[] copyText, String round) throws Exception {
        String model = "model_" + round;
        storage.tables().createTable(RestoreBenchSide.definition(model));
        dev.stillpoint.core.TableWaiter.awaitActive(storage.tables(), ACCOUNT, model, Duration.ofSeconds(60));
        String id = storage.tables().describeTable(ACCOUNT, model).tableId();
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE native_" + round + " (LIKE \"d_" + id + "\" INCLUDING ALL)");
            s.execute("CREATE TABLE native_" + round + "_gsi (LIKE \"d_" + id + "__gsi__0\" INCLUDING ALL)");
        }
        long start = System.nanoTime();
        c.setAutoCommit(false);
        c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY native_" + round + " (pk, sk, item) FROM STDIN",
                new java.io.ByteArrayInputStream(copyText));
        try (Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO native_" + round + "_gsi (pk, base_pk, base_sk, item) SELECT"
                    + " (item::jsonb -> 'email' ->> 'S'), pk, sk, item FROM native_" + round
                    + " WHERE item::jsonb ? 'email'");
        }
        c.commit();
        c.setAutoCommit(true);
        return (System.nanoTime() - start) / 1e9;
    }
}
