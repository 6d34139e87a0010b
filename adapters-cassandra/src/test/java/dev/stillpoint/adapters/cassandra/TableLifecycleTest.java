package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.key.AttributeDefinition;
import dev.stillpoint.domain.key.KeySchema;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.LocalSecondaryIndex;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The table lifecycle on Cassandra [C2, D5]: CreateTable answers ACTIVE; DeleteTable is synchronous,
 * so a table is there (ACTIVE) or gone, and DescribeTable never reports DELETING, not even while
 * deletes run; a CreateTable of the same name after the delete works and starts empty.
 */
class TableLifecycleTest extends OnSharedNode {


    static CreateTableRequest withIndexes(String account, String table) {
        return new CreateTableRequest(account, table, KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N),
                        new AttributeDefinition("g", ScalarType.S), new AttributeDefinition("l", ScalarType.B)),
                List.of(GlobalSecondaryIndex.creating("by-g", KeySchema.hashOnly("g"), Projection.all())),
                List.of(LocalSecondaryIndex.of("by-l", KeySchema.composite("pk", "l"), Projection.keysOnly())),
                Optional.empty());
    }

    static void assertNotFound(Runnable call, String what) {
        Throwable thrown = catchThrowable(call::run);
        assertThat(thrown).as(what).isInstanceOf(StorageException.class);
        assertThat(((StorageException) thrown).reason()).as(what + ": %s", thrown).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
    }

    Set<String> existingTables(String keyspace) {
        Set<String> names = new java.util.HashSet<>();
        storage.cql().read("listing", "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", keyspace)
                .forEach(r -> names.add(r.getString("table_name")));
        return names;
    }

    @Test
    void createTableAnswersActiveAndDescribesTheRequest() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("described");
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TableDescription created = storage.tables().createTable(withIndexes(account, table));
        assertThat(created.status()).as("the table is usable when CreateTable returns").isEqualTo(TableStatus.ACTIVE);
        assertThat(created.globalSecondaryIndexes()).singleElement()
                .satisfies(g -> assertThat(g.status()).isEqualTo(dev.stillpoint.domain.table.IndexStatus.ACTIVE));
        TableDescription described = storage.tables().describeTable(account, table);
        assertThat(described).as("DescribeTable answers what CreateTable answered").isEqualTo(created);
        assertThat(described.creationTime()).isAfterOrEqualTo(before);
        assertThat(described.tableId()).matches("[a-f0-9]{32}");
        assertThat(described.tableArn()).isEqualTo("arn:aws:dynamodb:local:" + account + ":table/" + table);
        assertThat(storage.tables().listTables(account)).containsExactly(table);
    }

    @Test
    void deleteTableIsSynchronousAndDropsEveryDataTable() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("deleted");
        TableDescription created = storage.tables().createTable(withIndexes(account, table));
        storage.tables().putItem(account, table, TestCassandra.item("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1"),
                "g", AttributeValue.s("x"), "l", AttributeValue.b(new byte[] {1})));
        List<String> dataTables = StoredData.dataTables(storage, account, table);
        assertThat(dataTables).hasSize(3);
        String keyspace = dataTables.get(0).substring(0, dataTables.get(0).indexOf('.'));
        assertThat(existingTables(keyspace)).containsAll(dataTables.stream().map(t -> t.substring(t.indexOf('.') + 1)).toList());

        TableDescription answer = storage.tables().deleteTable(account, table);
        assertThat(answer.status()).as("DeleteTable answers DELETING, as DynamoDB does").isEqualTo(TableStatus.DELETING);
        assertThat(answer.tableId()).isEqualTo(created.tableId());
        // ... but the table is already gone [C2].
        assertNotFound(() -> storage.tables().describeTable(account, table), "describe right after the delete");
        assertThat(storage.tables().listTables(account)).doesNotContain(table);
        assertNotFound(() -> storage.tables().getItem(account, table, RequestKey.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1"))),
                "get after the delete");
        assertThat(existingTables(keyspace)).as("every data table was dropped")
                .doesNotContainAnyElementsOf(dataTables.stream().map(t -> t.substring(t.indexOf('.') + 1)).toList());
    }

    @Test
    void createTableOfTheSameNameAfterTheDeleteWorksAndStartsEmpty() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("again");
        TableDescription first = storage.tables().createTable(TestCassandra.composite(account, table, ScalarType.S, ScalarType.N));
        storage.tables().putItem(account, table, TestCassandra.item("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1")));
        storage.tables().deleteTable(account, table);

        TableDescription second = storage.tables().createTable(TestCassandra.hashOnly(account, table, ScalarType.B));
        assertThat(second.status()).isEqualTo(TableStatus.ACTIVE);
        assertThat(second.tableId()).as("a new table instance").isNotEqualTo(first.tableId());
        assertThat(second.keySchema()).isEqualTo(KeySchema.hashOnly("pk"));
        assertThat(StoredData.allItems(storage, account, table)).as("the new table starts empty").isEmpty();
        storage.tables().putItem(account, table, TestCassandra.item("pk", AttributeValue.b(new byte[] {(byte) 0xff})));
        assertThat(storage.tables().getItem(account, table, RequestKey.of("pk", AttributeValue.b(new byte[] {(byte) 0xff})))).isPresent();
    }

    @Test
    void deleteOfAMissingTableIsTableNotFoundAndASecondDeleteToo() {
        String account = TestCassandra.account();
        String table = TestCassandra.tableName("twice");
        assertNotFound(() -> storage.tables().deleteTable(account, table), "deleting a table never created");
        storage.tables().createTable(TestCassandra.hashOnly(account, table, ScalarType.S));
        storage.tables().deleteTable(account, table);
        assertNotFound(() -> storage.tables().deleteTable(account, table), "deleting it again");
    }

    @Test
    void describeNeverReportsDeletingWhileTablesAreCreatedAndDeleted() throws Exception {
        String account = TestCassandra.account();
        List<String> names = List.of(TestCassandra.tableName("watch"), TestCassandra.tableName("watch"));
        AtomicBoolean stop = new AtomicBoolean();
        Set<TableStatus> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger notFound = new AtomicInteger();
        AtomicInteger describes = new AtomicInteger();
        List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> watchers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                watchers.add(pool.submit(() -> {
                    while (!stop.get()) {
                        for (String name : names) {
                            try {
                                seen.add(storage.tables().describeTable(account, name).status());
                            } catch (StorageException e) {
                                if (e.reason() == ErrorReason.TABLE_NOT_FOUND) {
                                    notFound.incrementAndGet();
                                } else {
                                    unexpected.add(e);
                                }
                            }
                            describes.incrementAndGet();
                        }
                        pause();
                    }
                }));
            }
            // Concurrent deletes of one table, too: each answers or says not found; none leaves DELETING.
            for (int round = 0; round < 2; round++) {
                for (String name : names) {
                    storage.tables().createTable(round == 0 ? withIndexes(account, name)
                            : TestCassandra.hashOnly(account, name, ScalarType.N));
                }
                for (String name : names) {
                    CountDownLatch go = new CountDownLatch(1);
                    Future<?> racer = pool.submit(() -> {
                        go.await();
                        try {
                            storage.tables().deleteTable(account, name);
                        } catch (StorageException e) {
                            assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
                        }
                        return null;
                    });
                    go.countDown();
                    try {
                        storage.tables().deleteTable(account, name);
                    } catch (StorageException e) {
                        assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
                    }
                    racer.get(60, TimeUnit.SECONDS);
                    assertNotFound(() -> storage.tables().describeTable(account, name), "describe after the delete");
                }
            }
            stop.set(true);
            for (Future<?> w : watchers) {
                w.get(30, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        assertThat(unexpected).isEmpty();
        assertThat(seen).as("statuses DescribeTable reported over %d calls", describes.get()).doesNotContain(TableStatus.DELETING);
        assertThat(seen).contains(TableStatus.ACTIVE);
        assertThat(notFound.get()).isPositive();
        assertThat(storage.tables().listTables(account)).isEmpty();
    }

    private static void pause() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aCreatingRowIsInUseUntilItIsStaleThenDeleteTableRemovesIt() {
        String account = TestCassandra.account();
        String fresh = TestCassandra.tableName("creating");
        String stale = TestCassandra.tableName("stale");
        String keyspace = storage.catalog().dataKeyspace(account);
        // Rows as a creator that died after the catalog insert leaves them: CREATING, no data tables.
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        for (String name : List.of(fresh, stale)) {
            Instant created = name.equals(stale) ? now.minus(storage.config().staleCreatingAfter()).minus(Duration.ofMinutes(1)) : now;
            CreateTableRequest r = TestCassandra.hashOnly(account, name, ScalarType.S);
            assertThat(storage.catalog().insertIfAbsent(new CatalogRow(account, name, DataNames.newTableId(),
                    "arn:test", TableStatus.CREATING, created, keyspace, r.keySchema(), r.attributeDefinitions(),
                    List.of(), Optional.empty(), Optional.empty(), 1))).isEmpty();
        }
        assertThat(storage.tables().describeTable(account, fresh).status()).isEqualTo(TableStatus.CREATING);
        assertThatThrownBy(() -> storage.tables().createTable(TestCassandra.hashOnly(account, fresh, ScalarType.S)))
                .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE));
        assertThatThrownBy(() -> storage.tables().deleteTable(account, fresh))
                .as("a table still CREATING cannot be deleted [D5]")
                .isInstanceOfSatisfying(StorageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
                    assertThat(e.getMessage()).contains("still CREATING");
                });
        assertNotFound(() -> storage.tables().putItem(account, fresh, TestCassandra.item("pk", AttributeValue.s("a"))),
                "items of a CREATING table");

        assertThat(storage.tables().deleteTable(account, stale).status()).isEqualTo(TableStatus.DELETING);
        assertNotFound(() -> storage.tables().describeTable(account, stale), "a stale CREATING table after its delete");
        assertThat(storage.tables().listTables(account)).containsExactly(fresh);
    }
}
