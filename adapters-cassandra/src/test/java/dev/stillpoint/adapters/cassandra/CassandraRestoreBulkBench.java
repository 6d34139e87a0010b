package dev.stillpoint.adapters.cassandra;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.item.Key;
import dev.stillpoint.itemjson.ItemJson;
import dev.stillpoint.properties.bench.BenchItems;
import dev.stillpoint.properties.bench.RestoreBenchSide;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Restore through Cassandra's bulk path [B1] beside the database's own way of loading the same rows and index
 * entries fast (issue 30; what DSBulk and cqlsh COPY do): plain asynchronous INSERTs, the same
 * {@value CassandraBulkLoads#IN_FLIGHT} outstanding, no condition. N items of ~400 bytes ({@link BenchItems}),
 * key (pk S, sk N), one GSI on {@code email} (S) holding every item. The restore side: {@code begin}, writes of
 * 500 items (the CLI's batch), {@code complete}; the items in memory before the clock starts. The native side:
 * the same statements' rows into a table made by the same engine (so the same relations), every statement
 * bound before the clock starts. The restore also counts the table's keys at its end (a key written twice is
 * refused [B1]); its item insert was an {@code IF NOT EXISTS} (a lightweight transaction) until that count
 * replaced it: 0.10-0.11 of the native side, and timeouts on a just-started node. Rounds alternate which side goes first; prints every round, the ratio (native
 * time / restore time) and the best. Nothing asserted; run by hand on the test node:
 * {@code mvn -pl adapters-cassandra -am test-compile}, then the class with the module's test classpath.
 */
public final class CassandraRestoreBulkBench {

    private static final String ACCOUNT = RestoreBenchSide.ACCOUNT;

    private CassandraRestoreBulkBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<Item> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(BenchItems.item(i));
        }
        CassandraStorage storage = TestCassandra.open();
        try {
            System.out.printf(Locale.ROOT, "CassandraRestoreBulkBench: %d items, one GSI, %d rounds, %d in flight;"
                    + " load average %s%n", n, rounds, CassandraBulkLoads.IN_FLIGHT, RestoreBenchSide.loadAverage());
            double best = 0;
            for (int round = 1; round <= rounds; round++) {
                double restore;
                double plain;
                if (round % 2 == 1) {
                    restore = RestoreBenchSide.restore(storage, items, "restored_r" + round);
                    plain = plainInserts(storage, items, "r" + round);
                } else {
                    plain = plainInserts(storage, items, "r" + round);
                    restore = RestoreBenchSide.restore(storage, items, "restored_r" + round);
                }
                double ratio = plain / restore;
                best = Math.max(best, ratio);
                System.out.printf(Locale.ROOT, "round %d: restore %.2f s (%,.0f items/s) | plain async INSERTs %.2f s"
                        + " (%,.0f items/s) | restore / native %.2f (load average %s)%n", round, restore, n / restore,
                        plain, n / plain, ratio, RestoreBenchSide.loadAverage());
            }
            System.out.printf(Locale.ROOT, "restore / native bulk load, Cassandra, %d items, one GSI: best %.2f"
                    + " (target >= 0.5)%n", n, best);
        } catch (RuntimeException e) {
            e.printStackTrace();
            throw e;
        } finally {
            TestCassandra.dropAndClose(storage);
        }
    }

    /** Every row the restore writes, as plain INSERTs into a table the engine made, bound before the clock. */
    private static double plainInserts(CassandraStorage storage, List<Item> items, String round) throws Exception {
        String name = "native_" + round;
        storage.tables().createTable(RestoreBenchSide.definition(name));
        TableWaiter.awaitActive(storage.tables(), ACCOUNT, name, Duration.ofSeconds(60));
        CatalogRow row = storage.catalog().find(ACCOUNT, name).orElseThrow();
        IndexDef index = row.index("byEmail").orElseThrow();
        IndexEntries entries = new IndexEntries(storage.cql(), storage.catalog());
        String insert = ItemStatements.insertItem(row).replace(" IF NOT EXISTS", "");
        long rev = System.currentTimeMillis() * 1000;
        List<BoundStatement> statements = new ArrayList<>(items.size() * 2);
        for (Item item : items) {
            CqlKey base = CqlKey.base(row, Key.of(item, row.keySchema()));
            statements.add(storage.cql().bind("bench", insert, ItemStatements.values(base, ItemJson.encode(item), rev)));
            statements.add(entries.insert(row, index, CqlKey.of(row, index.keySchema(), Key.of(item.get("email"))),
                    base, item, rev));
        }
        Semaphore slots = new Semaphore(CassandraBulkLoads.IN_FLIGHT);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long start = System.nanoTime();
        for (BoundStatement s : statements) {
            slots.acquireUninterruptibly();
            CompletionStage<AsyncResultSet> answer = storage.cql().session().executeAsync(s);
            answer.whenComplete((rs, error) -> {
                if (error != null) {
                    failure.compareAndSet(null, error);
                }
                slots.release();
            });
        }
        slots.acquireUninterruptibly(CassandraBulkLoads.IN_FLIGHT);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (failure.get() != null) {
            throw new IllegalStateException("a plain insert failed", failure.get());
        }
        return seconds;
    }
}
