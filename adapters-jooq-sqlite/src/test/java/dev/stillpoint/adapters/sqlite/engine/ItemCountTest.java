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
import dev.stillpoint.properties.kit.IndexCountChecks;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
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

    /**
     * Each index's ItemCount and IndexSizeBytes are recounted with the table's (they were a constant 0, found
     * from outside: a restored 120,000-item table described its GSI with ItemCount 0), and recording them
     * advances no catalog_version: the counts are not the definition, so no item write's cached definition
     * is thrown away by a recount.
     */
    @Test
    void eachIndexsCountsAreRecountedWithoutAdvancingTheCatalogVersion() throws Exception {
        Path file = TestDatabases.newFile("index-counts");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file))) {
            storage.tables().createTable(IndexCountChecks.table(ACCOUNT, "indexed"));
            TableWaiter.awaitActive(storage.tables(), ACCOUNT, "indexed", Duration.ofSeconds(30));
            IndexCountChecks.write(storage.tables(), ACCOUNT, "indexed");
        }
        long versionBefore = catalogVersion(file);
        try (SqliteStorage restarted = SqliteStorage.open(SqliteConfig.file(file))) {
            IndexCountChecks.requireCounted(IndexCountChecks.awaitCounted(
                    () -> restarted.tables().describeTable(ACCOUNT, "indexed"), Duration.ofSeconds(30)));
        }
        assertThat(catalogVersion(file)).as("catalog_version after a recount that recorded new index counts")
                .isEqualTo(versionBefore);
    }

    private static long catalogVersion(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             ResultSet r = c.createStatement().executeQuery(
                     "SELECT catalog_version FROM sp_tables WHERE table_name = 'indexed'")) {
            assertThat(r.next()).as("the table's catalog row").isTrue();
            return r.getLong(1);
        }
    }
}

