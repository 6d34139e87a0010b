package dev.stillpoint.adapters.sqlite.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
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
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.properties.fixtures.SqlCatalogAccess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Item writes keep the definition they last loaded and check it by (table_id, catalog_version) inside
 * their transaction (issue 13). A second engine on the same file (another process, in production)
 * changes the table between two puts of the first engine; the second put must follow the change.
 * Tried by hand: with the version left out of the check (the table id alone), the GSI test fails (the
 * second put writes no entry) and so does the hand-edit test; the recreate test rests on the table id.
 */
class CatalogVersionTest {

    private static final String ACCOUNT = "acct";
    private static final Duration ACTIVE = Duration.ofSeconds(30);

    private static SqliteStorage engine(Path file) {
        return SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO));
    }

    private static Item item(String pk, String g) {
        return Item.of(Map.of("pk", AttributeValue.s(pk), "g", AttributeValue.s(g)));
    }

    @Test
    void aGsiAddedByAnotherEngineBetweenTwoPutsGetsTheSecondPutsEntry() throws Exception {
        Path file = TestDatabases.newFile("catalog-version-gsi");
        try (SqliteStorage first = engine(file); SqliteStorage second = engine(file)) {
            first.tables().createTable(CreateTableRequest.builder(ACCOUNT, "orders").partitionKey("pk", ScalarType.S).build());
            TableWaiter.awaitActive(first.tables(), ACCOUNT, "orders", ACTIVE);
            first.tables().putItem(ACCOUNT, "orders", item("a", "x"));
            second.tables().addGlobalSecondaryIndex(ACCOUNT, "orders", CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.all()),
                    new AttributeDefinition("g", ScalarType.S)));
            TableWaiter.awaitActive(second.tables(), ACCOUNT, "orders", ACTIVE);
            first.tables().putItem(ACCOUNT, "orders", item("b", "y"));
            try (Connection c = TestDatabases.openFile(file)) {
                assertThat(SqlCatalogAccess.indexEntries(c, c, ACCOUNT, "orders", "by_g"))
                        .as("the backfilled entry of 'a' and the second put's entry of 'b'").isEqualTo(2);
            }
            StorageException wrongType = catchThrowableOfType(() -> first.tables().putItem(ACCOUNT, "orders",
                    Item.of(Map.of("pk", AttributeValue.s("c"), "g", AttributeValue.n("1")))), StorageException.class);
            assertThat(wrongType).as("the first engine checks the new GSI's key type [R3]").isNotNull();
            assertThat(wrongType.reason()).isEqualTo(ErrorReason.VALIDATION);
        }
    }

    @Test
    void aTableDeletedAndCreatedAgainByAnotherEngineIsWrittenUnderItsNewDefinition() {
        Path file = TestDatabases.newFile("catalog-version-recreate");
        try (SqliteStorage first = engine(file); SqliteStorage second = engine(file)) {
            first.tables().createTable(CreateTableRequest.builder(ACCOUNT, "orders").partitionKey("pk", ScalarType.S).build());
            TableWaiter.awaitActive(first.tables(), ACCOUNT, "orders", ACTIVE);
            first.tables().putItem(ACCOUNT, "orders", Item.of(Map.of("pk", AttributeValue.s("a"))));
            second.tables().deleteTable(ACCOUNT, "orders");
            second.tables().createTable(CreateTableRequest.builder(ACCOUNT, "orders").partitionKey("pk", ScalarType.N).build());
            TableWaiter.awaitActive(second.tables(), ACCOUNT, "orders", ACTIVE);
            StorageException oldType = catchThrowableOfType(() -> first.tables().putItem(ACCOUNT, "orders",
                    Item.of(Map.of("pk", AttributeValue.s("b")))), StorageException.class);
            assertThat(oldType).as("a put with the old key type is refused against the new definition").isNotNull();
            assertThat(oldType.reason()).isEqualTo(ErrorReason.VALIDATION);
            first.tables().putItem(ACCOUNT, "orders", Item.of(Map.of("pk", AttributeValue.n("7"))));
            assertThat(second.tables().getItem(ACCOUNT, "orders", RequestKey.of("pk", AttributeValue.n("7"))))
                    .as("the first engine's put went into the new table").isPresent();
            second.tables().deleteTable(ACCOUNT, "orders");
            StorageException gone = catchThrowableOfType(() -> first.tables().putItem(ACCOUNT, "orders",
                    Item.of(Map.of("pk", AttributeValue.n("8")))), StorageException.class);
            assertThat(gone.reason()).as("a put into the deleted table").isEqualTo(ErrorReason.TABLE_NOT_FOUND);
        }
    }

    @Test
    void aHandEditOfTheCatalogAdvancesTheVersion() throws Exception {
        Path file = TestDatabases.newFile("catalog-version-edit");
        try (SqliteStorage first = engine(file)) {
            first.tables().createTable(CreateTableRequest.builder(ACCOUNT, "orders").partitionKey("pk", ScalarType.S).build());
            TableWaiter.awaitActive(first.tables(), ACCOUNT, "orders", ACTIVE);
            first.tables().putItem(ACCOUNT, "orders", Item.of(Map.of("pk", AttributeValue.s("a"))));
            try (Connection c = TestDatabases.openFile(file);
                 PreparedStatement u = c.prepareStatement("UPDATE sp_tables SET status = 'DELETING' WHERE table_name = ?")) {
                u.setString(1, "orders");
                assertThat(u.executeUpdate()).isEqualTo(1);
            }
            StorageException deleting = catchThrowableOfType(() -> first.tables().putItem(ACCOUNT, "orders",
                    Item.of(Map.of("pk", AttributeValue.s("b")))), StorageException.class);
            assertThat(deleting).as("the put sees the table DELETING").isNotNull();
            assertThat(deleting.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
        }
    }
}
