package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.CreateGsiRequest;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** put / get / delete item with index maintenance, on the real node. */
class ItemsAndIndexesTest extends OnSharedNode {


    static CreateTableRequest indexed(String account, String table) {
        return new CreateTableRequest(account, table, KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N),
                        new AttributeDefinition("g", ScalarType.S), new AttributeDefinition("k", ScalarType.B),
                        new AttributeDefinition("l", ScalarType.S)),
                List.of(GlobalSecondaryIndex.creating("by-g", KeySchema.composite("g", "sk"), Projection.all()),
                        GlobalSecondaryIndex.creating("by-k", KeySchema.hashOnly("k"), Projection.keysOnly()),
                        GlobalSecondaryIndex.creating("by-g-incl", KeySchema.hashOnly("g"), Projection.include(List.of("v")))),
                List.of(LocalSecondaryIndex.of("by-l", KeySchema.composite("pk", "l"), Projection.all())),
                Optional.empty());
    }

    static Item item(String pk, String sk, Object... more) {
        Object[] all = new Object[4 + more.length];
        all[0] = "pk";
        all[1] = AttributeValue.s(pk);
        all[2] = "sk";
        all[3] = AttributeValue.n(sk);
        System.arraycopy(more, 0, all, 4, more.length);
        return TestCassandra.item(all);
    }

    /** Runs a write as a DynamoDB client would: a Transient (503) answer is retried, a few times. */
    static void retryingTransient(Runnable write) {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                return;
            } catch (StorageException e) {
                if (e.reason() != ErrorReason.TRANSIENT || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    @Test
    void putGetDeleteKeepEveryIndexInStep() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("items");
        storage.tables().createTable(indexed(account, table));
        Item a = item("a", "1.50", "g", AttributeValue.s("red"), "k", AttributeValue.b(new byte[] {7}),
                "l", AttributeValue.s("x"), "v", AttributeValue.s("kept"), "w", AttributeValue.s("dropped"));
        storage.tables().putItem(account, table, a);
        Item stored = storage.tables().getItem(account, table, RequestKey.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1.5"))).orElseThrow();
        assertThat(stored.get("sk")).as("numbers normalised").isEqualTo(AttributeValue.n("1.5"));
        assertThat(StoredData.indexItems(storage, account, table, "by-g")).containsExactly(stored);
        assertThat(StoredData.indexItems(storage, account, table, "by-l")).containsExactly(stored);
        assertThat(StoredData.indexItems(storage, account, table, "by-k")).as("KEYS_ONLY: table and index keys")
                .containsExactly(TestCassandra.item("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1.5"),
                        "k", AttributeValue.b(new byte[] {7})));
        assertThat(StoredData.indexItems(storage, account, table, "by-g-incl")).as("INCLUDE v")
                .containsExactly(TestCassandra.item("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1.5"),
                        "g", AttributeValue.s("red"), "v", AttributeValue.s("kept")));

        // Overwrite: g changes, k goes, l stays.
        Item a2 = item("a", "1.5", "g", AttributeValue.s("blue"), "l", AttributeValue.s("x"));
        storage.tables().putItem(account, table, a2);
        assertThat(StoredData.indexItems(storage, account, table, "by-g")).containsExactly(a2);
        assertThat(StoredData.indexItems(storage, account, table, "by-k")).as("the item left the index").isEmpty();
        assertThat(StoredData.indexItems(storage, account, table, "by-l")).containsExactly(a2);

        // A second item with the same GSI key is a second entry.
        Item b = item("b", "-2", "g", AttributeValue.s("blue"), "k", AttributeValue.b(new byte[] {7}));
        storage.tables().putItem(account, table, b);
        assertThat(StoredData.indexItems(storage, account, table, "by-g")).containsExactlyInAnyOrder(a2, b);
        assertThat(StoredData.indexItems(storage, account, table, "by-g-incl")).hasSize(2);

        storage.tables().deleteItem(account, table, RequestKey.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1.5")));
        assertThat(storage.tables().getItem(account, table, RequestKey.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1.5")))).isEmpty();
        assertThat(StoredData.indexItems(storage, account, table, "by-g")).containsExactly(b);
        assertThat(StoredData.indexItems(storage, account, table, "by-l")).isEmpty();
        // Deleting a missing item is not an error and changes nothing.
        storage.tables().deleteItem(account, table, RequestKey.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1.5")));
        assertThat(StoredData.allItems(storage, account, table)).containsExactly(b);
    }

    @Test
    void aLargeItemGoesIntoEveryIndexWithoutABatchTooLargeForCassandra() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("large");
        storage.tables().createTable(indexed(account, table));
        // ~300 KB, projected whole into two indexes: far over Cassandra's 50 KiB batch limit.
        Item big = item("big", "1", "g", AttributeValue.s("red"), "k", AttributeValue.b(new byte[] {1}),
                "l", AttributeValue.s("x"), "v", AttributeValue.s("v".repeat(300_000)));
        storage.tables().putItem(account, table, big);
        assertThat(StoredData.indexItems(storage, account, table, "by-g")).containsExactly(big);
        assertThat(StoredData.indexItems(storage, account, table, "by-l")).containsExactly(big);
        assertThat(StoredData.indexItems(storage, account, table, "by-g-incl")).singleElement()
                .satisfies(e -> assertThat(e.get("v")).isEqualTo(big.get("v")));
        Item small = item("big", "1", "g", AttributeValue.s("blue"));
        storage.tables().putItem(account, table, small);
        assertThat(StoredData.indexItems(storage, account, table, "by-g")).containsExactly(small);
        assertThat(StoredData.indexItems(storage, account, table, "by-l")).isEmpty();
        assertThat(StoredData.indexItems(storage, account, table, "by-k")).isEmpty();
    }

    @Test
    void addingAGsiBackfillsExistingItemsAndLaterWritesMaintainIt() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("backfill");
        storage.tables().createTable(TestCassandra.composite(account, table, ScalarType.S, ScalarType.N));
        List<Item> inIndex = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            Item it;
            if (i % 3 == 0) {
                it = item("p" + (i % 7), Integer.toString(i));                                 // no h: not in the index
            } else if (i % 3 == 1) {
                it = item("p" + (i % 7), Integer.toString(i), "h", AttributeValue.n(Integer.toString(i)));  // h of another type
            } else {
                it = item("p" + (i % 7), Integer.toString(i), "h", AttributeValue.s("h" + (i % 5)));
                inIndex.add(it);
            }
            storage.tables().putItem(account, table, it);
        }
        TableDescription after = storage.tables().addGlobalSecondaryIndex(account, table, CreateGsiRequest.of(
                GlobalSecondaryIndex.creating("by-h", KeySchema.composite("h", "pk"), Projection.all()),
                new AttributeDefinition("h", ScalarType.S), new AttributeDefinition("pk", ScalarType.S)));
        GlobalSecondaryIndex gsi = after.gsi("by-h").orElseThrow();
        assertThat(gsi.status()).isEqualTo(IndexStatus.ACTIVE);
        assertThat(gsi.backfilling()).isFalse();
        assertThat(after.definition("h")).contains(new AttributeDefinition("h", ScalarType.S));
        assertThat(storage.tables().describeTable(account, table)).isEqualTo(after);
        assertThat(StoredData.indexItems(storage, account, table, "by-h")).as("every existing item with an S 'h'")
                .containsExactlyInAnyOrderElementsOf(inIndex);

        Item late = item("late", "1", "h", AttributeValue.s("h9"));
        storage.tables().putItem(account, table, late);
        assertThat(StoredData.indexItems(storage, account, table, "by-h")).contains(late);
        // Now that 'h' is an index key, an item holding it with another type is refused, naming the index.
        Throwable wrong = catchThrowable(() -> storage.tables().putItem(account, table, item("x", "1", "h", AttributeValue.n("1"))));
        assertThat(wrong).isInstanceOfSatisfying(StorageException.class, e -> {
            assertThat(e.reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(e.getMessage()).contains("by-h");
        });
        // Refusals: a taken name, a missing table.
        Throwable taken = catchThrowable(() -> storage.tables().addGlobalSecondaryIndex(account, table, CreateGsiRequest.of(
                GlobalSecondaryIndex.creating("by-h", KeySchema.hashOnly("pk"), Projection.all()),
                new AttributeDefinition("pk", ScalarType.S))));
        assertThat(((StorageException) taken).reason()).isEqualTo(ErrorReason.VALIDATION);
        assertThat(taken.getMessage()).contains("'by-h'");
        Throwable missing = catchThrowable(() -> storage.tables().addGlobalSecondaryIndex(account, table + "-nope",
                CreateGsiRequest.of(GlobalSecondaryIndex.creating("x-idx", KeySchema.hashOnly("pk"), Projection.all()),
                        new AttributeDefinition("pk", ScalarType.S))));
        assertThat(((StorageException) missing).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
    }

    @Test
    void concurrentWritersOfOneItemLeaveExactlyTheEntriesOfItsLastVersion() throws Exception {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("contended");
        storage.tables().createTable(indexed(account, table));
        int writers = 5;
        int writes = 12;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int seed = w;
                futures.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < writes; i++) {
                        int choice = random.nextInt(5);
                        if (choice == 0) {
                            retryingTransient(() -> storage.tables().deleteItem(account, table,
                                    RequestKey.of("pk", AttributeValue.s("hot"), "sk", AttributeValue.n("1"))));
                        } else {
                            Item next = item("hot", "1", "g", AttributeValue.s("g" + random.nextInt(4)),
                                    "k", AttributeValue.b(new byte[] {(byte) random.nextInt(3)}));
                            retryingTransient(() -> storage.tables().putItem(account, table, next));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Optional<Item> last = storage.tables().getItem(account, table, RequestKey.of("pk", AttributeValue.s("hot"), "sk", AttributeValue.n("1")));
        List<Item> entries = StoredData.indexItems(storage, account, table, "by-g");
        if (last.isPresent()) {
            assertThat(entries).as("exactly the last version's entry").containsExactly(last.get());
            assertThat(StoredData.indexItems(storage, account, table, "by-k")).hasSize(1);
        } else {
            assertThat(entries).as("the item is deleted: no entry").isEmpty();
            assertThat(StoredData.indexItems(storage, account, table, "by-k")).isEmpty();
        }
    }

    @Test
    void aGsiAddedWhileWritersRunEndsUpHoldingExactlyTheBaseItems() throws Exception {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("online");
        storage.tables().createTable(TestCassandra.composite(account, table, ScalarType.S, ScalarType.N));
        for (int i = 0; i < 40; i++) {
            storage.tables().putItem(account, table, item("p" + (i % 5), Integer.toString(i), "h", AttributeValue.s("v" + (i % 3))));
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger written = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int seed = 100 + w;
                writers.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    while (!stop.get()) {
                        int i = random.nextInt(40);
                        RequestKey key = RequestKey.of("pk", AttributeValue.s("p" + (i % 5)), "sk", AttributeValue.n(Integer.toString(i)));
                        if (random.nextInt(4) == 0) {
                            retryingTransient(() -> storage.tables().deleteItem(account, table, key));
                        } else if (random.nextInt(4) == 0) {
                            Item next = item("p" + (i % 5), Integer.toString(i));
                            retryingTransient(() -> storage.tables().putItem(account, table, next));
                        } else {
                            Item next = item("p" + (i % 5), Integer.toString(i), "h", AttributeValue.s("v" + random.nextInt(3)));
                            retryingTransient(() -> storage.tables().putItem(account, table, next));
                        }
                        written.incrementAndGet();
                    }
                    return null;
                }));
            }
            Thread.sleep(300);
            storage.tables().addGlobalSecondaryIndex(account, table, CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating("by-h", KeySchema.hashOnly("h"), Projection.all()),
                    new AttributeDefinition("h", ScalarType.S)));
            Thread.sleep(300);
            stop.set(true);
            for (Future<?> f : writers) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        assertThat(written.get()).as("writers ran during the UpdateTable").isPositive();
        List<Item> expected = StoredData.allItems(storage, account, table).stream().filter(i -> i.get("h") != null).toList();
        assertThat(StoredData.indexItems(storage, account, table, "by-h")).as("the index holds exactly the base items that have 'h'")
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void concurrentUpdateTablesAddingTwoIndexesKeepBoth() throws Exception {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("two-gsis");
        storage.tables().createTable(TestCassandra.composite(account, table, ScalarType.S, ScalarType.N));
        storage.tables().putItem(account, table, item("a", "1", "x", AttributeValue.s("x1"), "y", AttributeValue.n("2")));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> first = pool.submit(() -> storage.tables().addGlobalSecondaryIndex(account, table, CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating("by-x", KeySchema.hashOnly("x"), Projection.all()),
                    new AttributeDefinition("x", ScalarType.S))));
            Future<?> second = pool.submit(() -> storage.tables().addGlobalSecondaryIndex(account, table, CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating("by-y", KeySchema.hashOnly("y"), Projection.all()),
                    new AttributeDefinition("y", ScalarType.N))));
            first.get(60, TimeUnit.SECONDS);
            second.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        TableDescription d = storage.tables().describeTable(account, table);
        Map<String, IndexStatus> statuses = d.globalSecondaryIndexes().stream()
                .collect(Collectors.toMap(GlobalSecondaryIndex::name, GlobalSecondaryIndex::status, (x, y) -> x, HashMap::new));
        assertThat(statuses).containsOnly(Map.entry("by-x", IndexStatus.ACTIVE), Map.entry("by-y", IndexStatus.ACTIVE));
        assertThat(d.attributeDefinitions()).extracting(AttributeDefinition::name).contains("x", "y");
        assertThat(StoredData.indexItems(storage, account, table, "by-x")).hasSize(1);
        assertThat(StoredData.indexItems(storage, account, table, "by-y")).hasSize(1);
        assertThat(StoredData.dataTables(storage, account, table)).as("no index table of a lost attempt is named").hasSize(3);
    }
}
