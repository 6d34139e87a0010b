package dev.stillpoint.adapters.sqlite.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.domain.item.AttributeValue;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.key.ScalarType;
import dev.stillpoint.domain.table.CreateTableRequest;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.core.TableWaiter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * DescribeTable's ItemCount and TableSizeBytes are recounted by the control plane (issue 10: they were
 * a constant 0 on SQLite): on the first pass of an engine, and every few minutes after.
 */
class ItemCountTest {

    private static final String ACCOUNT = "acct";

    @Test
    void itemCountAndSizeAreRecountedOnTheFirstPassOfAnEngine() throws Exception {
        Path file = TestDatabases.newFile("counts");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file))) {
            storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, "counted").partitionKey("pk", ScalarType.S).build());
            TableWaiter.awaitActive(storage.tables(), ACCOUNT, "counted", Duration.ofSeconds(30));
            for (int i = 0; i < 7; i++) {
                storage.tables().putItem(ACCOUNT, "counted", Item.of(Map.of("pk", AttributeValue.s("k" + i),
                        "v", AttributeValue.s("x".repeat(100)))));
            }
        }
        try (SqliteStorage restarted = SqliteStorage.open(SqliteConfig.file(file))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            TableDescription d = restarted.tables().describeTable(ACCOUNT, "counted");
            while (d.itemCount() != 7 && System.nanoTime() - deadline < 0) {
                new CountDownLatch(1).await(20, TimeUnit.MILLISECONDS);
                d = restarted.tables().describeTable(ACCOUNT, "counted");
            }
            assertThat(d.itemCount()).as("ItemCount after the restarted engine's first pass").isEqualTo(7);
            assertThat(d.tableSizeBytes()).as("TableSizeBytes: the stored items' bytes, at least 7 x 100")
                    .isGreaterThanOrEqualTo(700);
        }
    }
}
