package dev.stillpoint.adapters.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.properties.kit.IndexCountChecks;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * DescribeTable's ItemCount and TableSizeBytes are recounted on Cassandra too (issue 10: never a constant
 * 0): by the engine's statistics poller, on its first pass and every few minutes after. A DeleteTable
 * forgets the table's counts.
 */
class ItemCountTest {

    private static final String ACCOUNT = "acct";

    @Test
    void itemCountAndSizeAreRecountedOnTheFirstPassOfAnEngine() throws Exception {
        CassandraConfig config = TestCassandra.config();
        String table = TestCassandra.tableName("counted");
        try (CassandraStorage storage = CassandraStorage.open(config)) {
            storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, table).partitionKey("pk", ScalarType.S).build());
            for (int i = 0; i < 7; i++) {
                storage.tables().putItem(ACCOUNT, table, Item.of(Map.of("pk", AttributeValue.s("k" + i),
                        "v", AttributeValue.s("x".repeat(100)))));
            }
        }
        CassandraStorage restarted = CassandraStorage.open(config);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            TableDescription d = restarted.tables().describeTable(ACCOUNT, table);
            while (d.itemCount() != 7 && System.nanoTime() - deadline < 0) {
                new CountDownLatch(1).await(50, TimeUnit.MILLISECONDS);
                d = restarted.tables().describeTable(ACCOUNT, table);
            }
            assertThat(d.itemCount()).as("ItemCount after the restarted engine's first pass").isEqualTo(7);
            assertThat(d.tableSizeBytes()).as("TableSizeBytes: the stored items' bytes, at least 7 x 100")
                    .isGreaterThanOrEqualTo(700);
            restarted.tables().deleteTable(ACCOUNT, table);
            restarted.tables().createTable(CreateTableRequest.builder(ACCOUNT, table).partitionKey("pk", ScalarType.S).build());
            assertThat(restarted.tables().describeTable(ACCOUNT, table).itemCount())
                    .as("a new table of the same name starts from no counts").isZero();
        } finally {
            TestCassandra.dropAndClose(restarted);
        }
    }

    /**
     * Each secondary index's ItemCount and IndexSizeBytes are recounted with the table's (they were a
     * constant 0, found from outside): the statistics row keeps them by index name.
     */
    @Test
    void eachIndexsCountsAreRecountedOnTheFirstPassOfAnEngine() throws Exception {
        CassandraConfig config = TestCassandra.config();
        String table = TestCassandra.tableName("indexed");
        try (CassandraStorage storage = CassandraStorage.open(config)) {
            storage.tables().createTable(IndexCountChecks.table(ACCOUNT, table));
            IndexCountChecks.write(storage.tables(), ACCOUNT, table);
        }
        CassandraStorage restarted = CassandraStorage.open(config);
        try {
            IndexCountChecks.requireCounted(IndexCountChecks.awaitCounted(
                    () -> restarted.tables().describeTable(ACCOUNT, table), Duration.ofSeconds(60)));
        } finally {
            TestCassandra.dropAndClose(restarted);
        }
    }
}

