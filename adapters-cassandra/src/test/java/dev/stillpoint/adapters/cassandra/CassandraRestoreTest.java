package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.RestoreSummary;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.domain.table.TimeToLive;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.ports.out.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The restore lifecycle on Cassandra [E4, E5], whose CreateTable is ACTIVE at once: a restore's table
 * stays CREATING with its restore in progress until the load completes, is filled only through the
 * load (items and index entries), and goes when the load is closed without completing or its engine
 * stops renewing (the next engine's statistics poller removes it).
 */
class CassandraRestoreTest extends OnSharedNode {

    private static final Instant RESTORED_AT = Instant.parse("2026-11-30T12:00:00.123Z");
    private static final RestoreOrigin ORIGIN =
            new RestoreOrigin(Optional.of("arn:aws:dynamodb:us-east-1:111122223333:table/Source"), RESTORED_AT);


    static final TimeToLive TIME_TO_LIVE = new TimeToLive("expiresAt", true);

    static CreateTableRequest definition(String account, String table) {
        return new CreateTableRequest(account, table, KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N),
                        new AttributeDefinition("g", ScalarType.S), new AttributeDefinition("l", ScalarType.N)),
                List.of(GlobalSecondaryIndex.creating("byG", KeySchema.hashOnly("g"), Projection.all())),
                List.of(LocalSecondaryIndex.of("byL", KeySchema.composite("pk", "l"), Projection.keysOnly())),
                Optional.empty(), Optional.of(TIME_TO_LIVE));
    }

    static Item item(int i) {
        java.util.LinkedHashMap<String, AttributeValue> a = new java.util.LinkedHashMap<>();
        a.put("pk", new AttributeValue.S("p" + (i % 7)));
        a.put("sk", AttributeValue.N.of(Integer.toString(i)));
        if (i % 2 == 0) {
            a.put("g", new AttributeValue.S("g" + (i % 5)));
        }
        if (i % 3 == 0) {
            a.put("l", AttributeValue.N.of(Integer.toString(1000 - i)));
        }
        return Item.of(a);
    }

    static List<Item> items(int from, int count) {
        List<Item> out = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            out.add(item(i));
        }
        return out;
    }

    // E4: CREATING with the summary in progress (DeleteTable and PutItem refused as on a CREATING table),
    // ACTIVE once complete with every item and index entry, the summary no longer in progress.
    @Test
    void e4_restoreIsCreatingUntilCompleteThenActiveWithItemsAndIndexEntries() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("restored");
        RestoreLoad load = storage.restores().begin(definition(account, table), ORIGIN);
        TableDescription begun = load.table();
        assertThat(begun.status()).isEqualTo(TableStatus.CREATING);
        assertThat(begun.restoreSummary()).contains(ORIGIN.summary(true));
        assertThat(begun.timeToLive()).contains(TIME_TO_LIVE);
        assertThat(storage.tables().describeTable(account, table)).isEqualTo(begun);
        assertThatThrownBy(() -> storage.tables().putItem(account, table, item(500)))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
        assertThatThrownBy(() -> storage.tables().deleteTable(account, table))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE));

        load.write(items(0, 30));
        load.write(items(30, 30));
        TableDescription done = load.complete();
        load.close();
        assertThat(done.status()).isEqualTo(TableStatus.ACTIVE);
        assertThat(done.restoreSummary()).contains(ORIGIN.summary(false));
        assertThat(storage.tables().describeTable(account, table).restoreSummary()).contains(ORIGIN.summary(false));
        assertThat(storage.tables().describeTable(account, table).timeToLive())
                .as("the time to live as the catalog row keeps it").contains(TIME_TO_LIVE);
        for (int i = 0; i < 60; i++) {
            Item expected = item(i);
            assertThat(storage.tables().getItem(account, table, RequestKey.of("pk", expected.get("pk"), "sk", expected.get("sk"))))
                    .as("item %d", i).contains(expected);
        }
        List<String> dataTables = StoredData.dataTables(storage, account, table);
        assertThat(dataTables).hasSize(3);
        assertThat(rows(dataTables.get(0))).isEqualTo(60);
        assertThat(rows(dataTables.get(1))).as("GSI entries: the 30 items with g").isEqualTo(30);
        assertThat(rows(dataTables.get(2))).as("LSI entries: the 20 items with l").isEqualTo(20);
        // Issue 29 and the index counts: the restored table's description carries its counts at once.
        assertThat(done.itemCount()).as("ItemCount right after the restore").isEqualTo(60);
        assertThat(done.globalSecondaryIndexes().get(0).itemCount())
                .as("the GSI's ItemCount right after the restore: the 30 items with g").isEqualTo(30);
        assertThat(done.localSecondaryIndexes().get(0).itemCount())
                .as("the LSI's ItemCount right after the restore: the 20 items with l").isEqualTo(20);
    }

    // E4: a name in use is refused up front, with nothing changed; a bad item is refused naming it.
    @Test
    void e4_nameInUseAndABadItemAreRefusedNamingThem() {
        String account = TestCassandra.account();
        String taken = TestCassandra.tableName("taken");
        TableDescription before = storage.tables().createTable(TestCassandra.hashOnly(account, taken, ScalarType.S));
        assertThatThrownBy(() -> storage.restores().begin(definition(account, taken), ORIGIN))
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
                    assertThat(e.getMessage()).contains("'" + taken + "'");
                });
        assertThat(storage.tables().describeTable(account, taken)).isEqualTo(before);
        assertThat(storage.tables().listTables(account)).containsExactly(taken);

        String checked = TestCassandra.tableName("checked");
        try (RestoreLoad load = storage.restores().begin(definition(account, checked), ORIGIN)) {
            Item wrong = Item.of(Map.of("pk", new AttributeValue.S("p"), "sk", AttributeValue.N.of("1"),
                    "g", AttributeValue.N.of("7")));
            assertThatThrownBy(() -> load.write(List.of(item(0), wrong)))
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                        assertThat(e.getMessage()).contains("item 2 of 2").contains("'g'");
                    });
        }
    }

    // B1: a restore loads through the bulk path (no item goes through the write-one-item path), in writes of
    // more items than the path keeps in flight, every item and exactly its index entries stored; a key
    // written twice in one load is refused naming the table, and the restore is then abandoned with nothing left.
    @Test
    void b1_aRestoreLoadsThroughTheBulkPathAndRefusesAKeyWrittenTwice() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("bulk");
        java.util.concurrent.atomic.AtomicInteger oneByOne = new java.util.concurrent.atomic.AtomicInteger();
        storage.hooks(new WriteHooks() {
            @Override
            public void beforeItemWrite(String tableName) {
                oneByOne.incrementAndGet();
            }
        });
        try {
            int n = 3 * CassandraBulkLoads.IN_FLIGHT + 17;
            try (RestoreLoad load = storage.restores().begin(definition(account, table), ORIGIN)) {
                load.write(items(0, n));
                load.write(items(n, 5));
                load.complete();
            }
            assertThat(oneByOne.get()).as("[B1] no item written one at a time").isZero();
            List<String> dataTables = StoredData.dataTables(storage, account, table);
            int total = n + 5;
            assertThat(rows(dataTables.get(0))).as("[B1] every item once").isEqualTo(total);
            assertThat(rows(dataTables.get(1))).as("[B1] a GSI entry for each item with g")
                    .isEqualTo((int) java.util.stream.IntStream.range(0, total).filter(i -> i % 2 == 0).count());
            assertThat(rows(dataTables.get(2))).as("[B1] an LSI entry for each item with l")
                    .isEqualTo((int) java.util.stream.IntStream.range(0, total).filter(i -> i % 3 == 0).count());
            for (int i : new int[] {0, n - 1, n + 4}) {
                Item expected = item(i);
                assertThat(storage.tables().getItem(account, table,
                        RequestKey.of("pk", expected.get("pk"), "sk", expected.get("sk")))).as("item %d", i).contains(expected);
            }
            // Plain inserts at write time 1 (no lightweight transaction each: 0.11 of plain inserts' speed, and
            // timeouts on a fresh node): every later write's Paxos ballot is above it, whatever the clocks.
            assertThat(storage.cql().read("write times", "SELECT writetime(item) FROM " + dataTables.get(0))
                    .all().stream().map(r -> r.getLong(0)).distinct().toList())
                    .as("[B1] the write time of every restored item's cells").containsExactly(ItemStatements.RESTORED_AT);
            Item overwritten = Item.of(java.util.Map.of("pk", item(1).get("pk"), "sk", item(1).get("sk"),
                    "v", dev.stillpoint.domain.item.AttributeValue.s("after")));
            storage.tables().putItem(account, table, overwritten);
            assertThat(storage.tables().getItem(account, table,
                    RequestKey.of("pk", overwritten.get("pk"), "sk", overwritten.get("sk"))))
                    .as("a PutItem after the restore wins over the restored item").contains(overwritten);

            String twice = TestCassandra.tableName("twice");
            RestoreLoad load = storage.restores().begin(definition(account, twice), ORIGIN);
            String id = load.table().tableId();
            load.write(items(0, 10));
            List<String> twiceTables = StoredData.dataTables(storage, account, twice);
            load.write(items(5, 3));
            // Found when the load finishes: the table holds 10 items where 13 were written.
            assertThatThrownBy(load::complete)
                    .as("[B1] a key written twice in one load; [E5] the load never completes")
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
                        assertThat(e.getMessage()).contains("'" + twice + "'").contains("written twice")
                                .contains("13 items were written but the table holds 10");
                    });
            load.close();
            assertNothingLeft(account, twice, id, twiceTables);
        } finally {
            storage.hooks(WriteHooks.NONE);
        }
    }

    // E5: close without complete leaves no catalog row, no restore row and no data table.
    @Test
    void e5_closeWithoutCompleteLeavesNothing() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("abandoned");
        RestoreLoad load = storage.restores().begin(definition(account, table), ORIGIN);
        String id = load.table().tableId();
        load.write(items(0, 10));
        List<String> dataTables = StoredData.dataTables(storage, account, table);
        load.close();
        load.close();
        assertNothingLeft(account, table, id, dataTables);
    }

    // E5: an engine on a host whose clock runs ten minutes ahead judges a live restore's stamp by the cluster's
    // clock (CatalogClock): its startup pass leaves the restore, its DeleteTable is refused, the restore completes.
    // By its own clock the stamp (60 s ahead of the restoring engine's) had passed long ago.
    @Test
    void e5_anEngineWhoseClockRunsAheadLeavesALiveRestoreAlone() throws Exception {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("clocked");
        RestoreLoad load = storage.restores().begin(definition(account, table), ORIGIN);
        load.write(items(0, 10));
        TimeSource ahead = new TimeSource() {
            @Override
            public Instant now() {
                return Instant.now().plus(Duration.ofMinutes(10));
            }

            @Override
            public long monotonicNanos() {
                return System.nanoTime();
            }
        };
        try (CassandraStorage skewed = CassandraStorage.open(storage.config().withTime(ahead))) {
            assertThat(skewed.awaitStartupRecovery(Duration.ofSeconds(60))).as("its startup pass ran").isTrue();
            assertThat(skewed.tables().describeTable(account, table).status())
                    .as("its startup pass, which removes dead restores, left the live one").isEqualTo(TableStatus.CREATING);
            assertThatThrownBy(() -> skewed.tables().deleteTable(account, table)).as("a live restore, by the cluster's clock")
                    .isInstanceOfSatisfying(StorageException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
                        assertThat(e.getMessage()).contains("a restore is filling it");
                    });
        }
        load.write(items(10, 10));
        assertThat(load.complete().status()).as("the restore completes").isEqualTo(TableStatus.ACTIVE);
    }

    // E5: an engine that stops renewing (closed without closing its load, as a killed process does)
    // leaves a restoring table the next engine's poller removes within the limit.
    @Test
    void e5_aRestoreWhoseEngineDiedIsRemovedByTheNextEngine() throws Exception {
        Duration limit = Duration.ofSeconds(2);
        CassandraConfig config = storage.config().withRestoreIdleLimit(limit);
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("dead");
        String id;
        List<String> dataTables;
        CassandraStorage dying = CassandraStorage.open(config);
        try {
            RestoreLoad load = dying.restores().begin(definition(account, table), ORIGIN);
            id = load.table().tableId();
            load.write(items(0, 10));
            dataTables = StoredData.dataTables(dying, account, table);
        } finally {
            dying.close(); // the load is never closed: no renewal, no removal from this engine
        }
        long diedAt = System.nanoTime();
        try (CassandraStorage next = CassandraStorage.open(config)) {
            long openedAt = System.nanoTime();
            long deadline = openedAt + TimeUnit.SECONDS.toNanos(60);
            while (present(next, account, table) && System.nanoTime() - deadline < 0) {
                new CountDownLatch(1).await(50, TimeUnit.MILLISECONDS);
            }
            double afterOpen = (System.nanoTime() - openedAt) / 1e9;
            assertThat(present(next, account, table)).as("the dead restore's table %.2f s after the next open", afterOpen)
                    .isFalse();
            // The stamp passes at most the limit after the last renewal; the removal then drops three data
            // tables, each a schema change the node must agree on (seconds each on a loaded build machine).
            assertThat(afterOpen).as("seconds from the next engine's open to the removal").isLessThan(limit.getSeconds() + 20);
            System.out.printf("Cassandra: dead restore removed %.2f s after its engine closed, %.2f s after the next"
                    + " engine opened (limit %d ms)%n", (System.nanoTime() - diedAt) / 1e9, afterOpen, limit.toMillis());
        }
        assertNothingLeft(account, table, id, dataTables);
    }

    private static boolean present(CassandraStorage engine, String account, String table) {
        try {
            engine.tables().describeTable(account, table);
            return true;
        } catch (StorageException e) {
            if (e.reason() != ErrorReason.TABLE_NOT_FOUND) {
                throw e;
            }
            return false;
        }
    }

    private static void assertNothingLeft(String account, String table, String tableId, List<String> dataTables) {
        assertThatThrownBy(() -> storage.tables().describeTable(account, table))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
        assertThat(storage.cql().read("reading restores", "SELECT table_id FROM " + storage.config().catalogKeyspace()
                + ".restores WHERE table_id = ?", tableId).one()).as("the restore row").isNull();
        String keyspace = dataTables.get(0).substring(0, dataTables.get(0).indexOf('.'));
        Set<String> existing = new HashSet<>();
        storage.cql().read("listing", "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", keyspace)
                .forEach(r -> existing.add(r.getString("table_name")));
        assertThat(existing).as("data tables left").doesNotContainAnyElementsOf(
                dataTables.stream().map(t -> t.substring(t.indexOf('.') + 1)).toList());
    }

    private static long rows(String qualifiedTable) {
        return storage.cql().read("counting", "SELECT count(*) FROM " + qualifiedTable).one().getLong(0);
    }
}
