package dev.stillpoint.adapters.postgres.engine;

import dev.stillpoint.adapters.postgres.PostgresStorage;
import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.ports.in.TableOperations;
import dev.stillpoint.properties.bench.BenchItems;
import dev.stillpoint.properties.bench.PutRounds;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PutItem on PostgreSQL (shared layout) against raw JDBC upserting the same rows (issue 13): items of
 * ~400 bytes ({@link BenchItems}), composite key (pk S, sk N), one GSI on {@code email}. The raw side
 * upserts the item row and the GSI row into a second Stillpoint table's own relations with prepared
 * statements, one transaction per item, its rows encoded before the clock starts. Server settings as
 * the test server has them (printed). Rounds alternate which side goes first. Prints each round and
 * whether the worst round met the 0.7 target, then the round trips per put of each side ({@link RoundTrips}).
 * Run by {@code bench/put.sh}.
 */
public final class PgPutBench {

    private static final String ACCOUNT = "000000000000";

    private PgPutBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = 3;
        int n = 8000;
        int warm = 8000; // as the issue measured "warm": 8,000 puts before the rounds
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--items" -> n = Integer.parseInt(args[++i]);
                case "--warm" -> warm = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        PgDatabases databases = PgDatabases.create("putbench");
        try (PostgresStorage storage = PostgresStorage.open(databases.config(Layout.SHARED)
                .withControlPlaneDelay(Duration.ZERO));
             Connection c = databases.dataSession(Layout.SHARED)) {
            try (ResultSet rs = c.createStatement().executeQuery("SELECT version(), current_setting('fsync'), "
                    + "current_setting('synchronous_commit')")) {
                rs.next();
                System.out.printf(Locale.ROOT, "PgPutBench: %s; fsync %s, synchronous_commit %s; %d rounds of %d items after %d"
                        + " warm-up items per side%n", rs.getString(1).split(",")[0], rs.getString(2), rs.getString(3),
                        rounds, n, warm);
            }
            TableOperations tables = storage.tables();
            String put = PutRounds.createTable(tables, ACCOUNT, "bench_put");
            PutRounds.RawTable raw = raw(c, PutRounds.createTable(tables, ACCOUNT, "bench_raw"));
            int[] next = {PutRounds.puts(tables, ACCOUNT, put, 0, warm)};
            rawPuts(raw, 0, warm);
            double worst = Double.MAX_VALUE;
            for (int r = 1; r <= rounds; r++) {
                int rawFrom = warm + (r - 1) * n;
                int items = n;
                worst = Math.min(worst, PutRounds.round(r, "PutItem",
                        () -> PutRounds.rate(items, () -> next[0] = PutRounds.puts(tables, ACCOUNT, put, next[0], items)),
                        () -> rawPuts(raw, rawFrom, items)));
            }
            PutRounds.verdict("PutItem PostgreSQL", 0.7, worst);
            changeLogRounds(tables, rounds, n, warm);
            int counted = 200;
            int from = next[0];
            long stillpoint = RoundTrips.count(() -> next[0] = PutRounds.puts(tables, ACCOUNT, put, from, counted));
            int rawFrom = warm + rounds * n;
            long rawTrips = RoundTrips.count(() -> rawPuts(raw, rawFrom, counted));
            System.out.printf(Locale.ROOT, "round trips per put (pgjdbc Syncs over %d puts): stillpoint %.2f, raw JDBC %.2f%n",
                    counted, stillpoint / (double) counted, rawTrips / (double) counted);
            // The calling thread's own CPU per put (rules, JSON, statements, driver): what the client adds.
            int timed = 1000;
            int cpuFrom = next[0];
            long spCpu = threadCpu(() -> next[0] = PutRounds.puts(tables, ACCOUNT, put, cpuFrom, timed));
            int rawCpuFrom = rawFrom + counted;
            long rawCpu = threadCpu(() -> rawPuts(raw, rawCpuFrom, timed));
            System.out.printf(Locale.ROOT, "client thread CPU per put over %d puts: stillpoint %.1f us, raw JDBC %.1f us"
                    + " (raw's rows encoded before its clock)%n", timed, spCpu / 1e3 / timed, rawCpu / 1e3 / timed);
        } finally {
            databases.close();
        }
        System.exit(0); // the embedded server stops in a shutdown hook
    }

    /**
     * PutItem on a table keeping a change log (NEW_AND_OLD_IMAGES, the dearer setting: the lock-first upsert
     * and the change's insert in the same round trip) against the same puts on a table without one, in the
     * same JVM and rounds, the side that goes first alternating [I1, issue 31's target >= 0.65x]. Half the
     * puts of each round overwrite an item the round before wrote, so old images are real.
     */
    private static void changeLogRounds(TableOperations tables, int rounds, int n, int warm) throws Exception {
        String on = PutRounds.createTable(tables, ACCOUNT, "bench_log_on", dev.stillpoint.domain.table.ChangeLog.NEW_AND_OLD_IMAGES);
        String off = PutRounds.createTable(tables, ACCOUNT, "bench_log_off");
        PutRounds.puts(tables, ACCOUNT, on, 0, warm);
        PutRounds.puts(tables, ACCOUNT, off, 0, warm);
        double worst = Double.MAX_VALUE;
        for (int r = 1; r <= rounds; r++) {
            int from = Math.max(0, warm + (r - 1) * (n / 2) - n / 2);
            double offRate = 0;
            if (r % 2 == 0) {
                offRate = PutRounds.rate(n, () -> PutRounds.puts(tables, ACCOUNT, off, from, n));
            }
            double onRate = PutRounds.rate(n, () -> PutRounds.puts(tables, ACCOUNT, on, from, n));
            if (r % 2 == 1) {
                offRate = PutRounds.rate(n, () -> PutRounds.puts(tables, ACCOUNT, off, from, n));
            }
            double ratio = onRate / offRate;
            worst = Math.min(worst, ratio);
            System.out.printf(Locale.ROOT, "round %d PutItem log on %,8.0f items/s  log off %,8.0f items/s  ratio %.3f%n",
                    r, onRate, offRate, ratio);
        }
        PutRounds.verdict("PutItem PostgreSQL change log on / off", 0.65, worst);
    }

    private static long threadCpu(PutRounds.Work work) throws Exception {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = threads.getCurrentThreadCpuTime();
        work.run();
        return threads.getCurrentThreadCpuTime() - t0;
    }

    /** Raw JDBC upserts into a Stillpoint table's own relations: the item row and the GSI row. */
    private static PutRounds.RawTable raw(Connection c, String table) throws SQLException {
        return PutRounds.RawTable.open(c, table, gsi -> "INSERT INTO \"" + gsi + "\" (pk, base_pk, base_sk, item) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (pk, base_pk, base_sk) DO UPDATE SET item = excluded.item");
    }

    /** {@code n} items from {@code from}, one transaction each; rows encoded before the clock starts. */
    private static double rawPuts(PutRounds.RawTable raw, int from, int n) throws SQLException {
        List<Object[]> rows = new ArrayList<>(n);
        for (int i = from; i < from + n; i++) {
            Item item = BenchItems.item(i);
            rows.add(new Object[] {((AttributeValue.S) item.get("pk")).value(),
                    new BigDecimal(((AttributeValue.N) item.get("sk")).text()),
                    ((AttributeValue.S) item.get("email")).value(), ItemJson.encode(item)});
        }
        long t0 = System.nanoTime();
        Connection c = raw.c();
        c.setAutoCommit(false);
        try {
            for (Object[] row : rows) {
                raw.base().setString(1, (String) row[0]);
                raw.base().setBigDecimal(2, (BigDecimal) row[1]);
                raw.base().setString(3, (String) row[3]);
                raw.base().executeUpdate();
                raw.gsi().setString(1, (String) row[2]);
                raw.gsi().setString(2, (String) row[0]);
                raw.gsi().setBigDecimal(3, (BigDecimal) row[1]);
                raw.gsi().setString(4, (String) row[3]);
                raw.gsi().executeUpdate();
                c.commit();
            }
        } finally {
            c.setAutoCommit(true);
        }
        return n / ((System.nanoTime() - t0) / 1e9);
    }
}
