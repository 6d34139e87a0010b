package dev.stillpoint.properties.bench;

import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the put benchmarks of every backend share: their table (composite key pk S + sk N, one GSI on
 * {@code email}), Stillpoint's side of a PutItem run, and the round that times both sides in an order
 * that alternates, so neither side always runs on a warmer cache. Compiled from source beside each
 * bench class, as {@link BenchItems} is.
 */
public final class PutRounds {

    /** One side's run of a round, answering its rate in items per second. */
    @FunctionalInterface
    public interface Side {
        double itemsPerSecond() throws Exception;
    }

    /** Work on {@code n} items, timed by {@link #rate}. */
    @FunctionalInterface
    public interface Work {
        void run() throws Exception;
    }

    private PutRounds() {
    }

    /** Creates the bench table {@code name} and waits until it is ACTIVE. */
    public static String createTable(TableOperations tables, String account, String name) {
        return createTable(tables, account, name, dev.stillpoint.domain.table.ChangeLog.OFF);
    }

    /** Creates the bench table {@code name} keeping {@code changeLog} [I1] and waits until it is ACTIVE. */
    public static String createTable(TableOperations tables, String account, String name,
                                     dev.stillpoint.domain.table.ChangeLog changeLog) {
        tables.createTable(new CreateTableRequest(account, name, KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N),
                        new AttributeDefinition("email", ScalarType.S)),
                List.of(GlobalSecondaryIndex.creating("by_email", KeySchema.hashOnly("email"), Projection.all())),
                List.of(), Optional.empty(), Optional.empty(), changeLog));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (tables.describeTable(account, name).status() != TableStatus.ACTIVE) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not become ACTIVE");
            }
            Thread.onSpinWait();
        }
        return name;
    }

    /** PutItem of items {@code from} to {@code from + n - 1} ({@link BenchItems}); answers the next item. */
    public static int puts(TableOperations tables, String account, String table, int from, int n) {
        for (int i = from; i < from + n; i++) {
            tables.putItem(account, table, BenchItems.item(i));
        }
        return from + n;
    }

    /** The rate of {@code work} on {@code n} items, in items per second. */
    public static double rate(int n, Work work) throws Exception {
        long t0 = System.nanoTime();
        work.run();
        return n / ((System.nanoTime() - t0) / 1e9);
    }

    /**
     * Round {@code round} of {@code label}: raw first in even rounds, Stillpoint first in odd ones; prints
     * both rates and answers Stillpoint's rate over raw's.
     */
    public static double round(int round, String label, Side stillpoint, Side raw) throws Exception {
        boolean rawFirst = round % 2 == 0;
        double rawRate = rawFirst ? raw.itemsPerSecond() : 0;
        double spRate = stillpoint.itemsPerSecond();
        if (!rawFirst) {
            rawRate = raw.itemsPerSecond();
        }
        double ratio = spRate / rawRate;
        System.out.printf(Locale.ROOT, "round %d %-15s stillpoint %,8.0f items/s  raw JDBC %,8.0f items/s  ratio %.3f%n",
                round, label, spRate, rawRate, ratio);
        return ratio;
    }

    /** The names of a bench table's base relation and its GSI's relation, read from a SQL catalog. */
    public static String[] relations(Connection c, String table) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT t.relation_name, i.relation_name FROM sp_tables t "
                + "JOIN sp_indexes i ON i.table_id = t.table_id WHERE t.table_name = ?")) {
            q.setString(1, table);
            try (ResultSet rs = q.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no bench table " + table + " with a GSI in the catalog");
                }
                return new String[] {rs.getString(1), rs.getString(2)};
            }
        }
    }

    /**
     * A bench table's own relations, written by raw JDBC on {@code c}: the base row's upsert and the GSI
     * row's, whose statement text {@code gsiUpsert} makes from the GSI relation's name.
     */
    public record RawTable(Connection c, PreparedStatement base, PreparedStatement gsi) {

        /** Prepares both upserts for bench table {@code table}. */
        public static RawTable open(Connection c, String table, Function<String, String> gsiUpsert) throws SQLException {
            String[] names = relations(c, table);
            return new RawTable(c, c.prepareStatement("INSERT INTO \"" + names[0] + "\" (pk, sk, item) VALUES (?, ?, ?) "
                    + "ON CONFLICT (pk, sk) DO UPDATE SET item = excluded.item"), c.prepareStatement(gsiUpsert.apply(names[1])));
        }
    }

    /** Prints whether the worst round's ratio met {@code target}. */
    public static void verdict(String what, double target, double worst) {
        System.out.printf(Locale.ROOT, "target %s >= %s: %s (worst round %.3f)%n", what, target,
                worst >= target ? "MET" : "NOT MET", worst);
    }
}
