package dev.stillpoint.adapters.postgres;

import static dev.stillpoint.adapters.postgres.testing.Tables.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stillpoint.adapters.postgres.testing.Layout;
import dev.stillpoint.adapters.postgres.testing.PgDatabases;
import dev.stillpoint.adapters.postgres.testing.Tables;
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
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.core.TableWaiter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Item writes keep the definition they last loaded and check it by (table_id, catalog_version), read
 * FOR KEY SHARE in their unit of work (issue 13). A second engine on the same databases (another
 * server node, in production) changes the table between two puts of the first; the second put must
 * follow the change, on both layouts. The first engine puts past pgjdbc's prepare threshold before each
 * change, so its definition and its statements are kept and prepared at the server when the change comes.
 */
class PostgresCatalogVersionTest {

    private static final Duration ACTIVE = Duration.ofSeconds(30);
    private static final int WARM_PUTS = 8;
    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("catalogversion");

    private static PostgresStorage open(Layout layout) {
        return PostgresStorage.open(databases.undelayed(layout));
    }

    private static Item item(String pk, String g) {
        return Item.of(Map.of("pk", AttributeValue.s(pk), "g", AttributeValue.s(g)));
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aGsiAddedByAnotherEngineBetweenTwoPutsGetsTheSecondPutsEntry(Layout layout) throws Exception {
        try (PostgresStorage first = open(layout); PostgresStorage second = open(layout)) {
            String name = warmTable(first);
            first.tables().putItem(ACCOUNT, name, item("a", "x"));
            TableDescription updated = second.tables().addGlobalSecondaryIndex(ACCOUNT, name, CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating("by_g", KeySchema.hashOnly("g"), Projection.all()),
                    new AttributeDefinition("g", ScalarType.S)));
            TableWaiter.awaitActive(second.tables(), ACCOUNT, name, ACTIVE);
            first.tables().putItem(ACCOUNT, name, item("b", "y"));
            assertThat(count(layout, "d_" + updated.tableId() + "__gsi__0"))
                    .as("the backfilled entries of 'a' and the warm-up items, and the second put's entry of 'b'")
                    .isEqualTo(WARM_PUTS + 2);
            StorageException wrongType = catchThrowableOfType(() -> first.tables().putItem(ACCOUNT, name,
                    Item.of(Map.of("pk", AttributeValue.s("c"), "g", AttributeValue.n("1")))), StorageException.class);
            assertThat(wrongType).as("the first engine checks the new GSI's key type [R3]").isNotNull();
            assertThat(wrongType.reason()).isEqualTo(ErrorReason.VALIDATION);
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aTableDeletedAndCreatedAgainByAnotherEngineIsWrittenUnderItsNewDefinition(Layout layout) {
        try (PostgresStorage first = open(layout); PostgresStorage second = open(layout)) {
            String name = warmTable(first);
            second.tables().deleteTable(ACCOUNT, name);
            second.tables().createTable(CreateTableRequest.builder(ACCOUNT, name).partitionKey("pk", ScalarType.N).build());
            TableWaiter.awaitActive(second.tables(), ACCOUNT, name, ACTIVE);
            StorageException oldType = catchThrowableOfType(() -> first.tables().putItem(ACCOUNT, name,
                    Item.of(Map.of("pk", AttributeValue.s("b")))), StorageException.class);
            assertThat(oldType).as("a put with the old key type is refused against the new definition").isNotNull();
            assertThat(oldType.reason()).isEqualTo(ErrorReason.VALIDATION);
            first.tables().putItem(ACCOUNT, name, Item.of(Map.of("pk", AttributeValue.n("7"))));
            assertThat(second.tables().getItem(ACCOUNT, name, RequestKey.of("pk", AttributeValue.n("7"))))
                    .as("the first engine's put went into the new table").isPresent();
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aTableRecreatedWithTheSameKeyAndAnIndexGetsTheNextPutInItsNewRelations(Layout layout) throws Exception {
        try (PostgresStorage first = open(layout); PostgresStorage second = open(layout)) {
            String name = warmTable(first);
            String before = first.tables().describeTable(ACCOUNT, name).tableId();
            second.tables().deleteTable(ACCOUNT, name);
            TableDescription after = second.tables().createTable(CreateTableRequest.builder(ACCOUNT, name)
                    .partitionKey("pk", ScalarType.S).globalIndex("by_g", "g", ScalarType.S, Projection.all()).build());
            TableWaiter.awaitActive(second.tables(), ACCOUNT, name, ACTIVE);
            first.tables().putItem(ACCOUNT, name, item("b", "y"));
            assertThat(count(layout, "d_" + after.tableId())).as("the put went into the new base relation").isEqualTo(1);
            assertThat(count(layout, "d_" + after.tableId() + "__gsi__0")).as("with the new GSI's entry").isEqualTo(1);
            assertThat(exists(layout, "d_" + before)).as("the old base relation stays dropped").isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aPutToATableAnotherEngineDeletedIsTableNotFound(Layout layout) {
        try (PostgresStorage first = open(layout); PostgresStorage second = open(layout)) {
            String name = warmTable(first);
            assertThat(second.tables().deleteTable(ACCOUNT, name).status())
                    .as("the first engine's kept statements block no drop [P6]").isEqualTo(TableStatus.DELETING);
            assertThat(second.tables().listTables(ACCOUNT)).as("dropped at once, not deferred").doesNotContain(name);
            StorageException gone = catchThrowableOfType(() -> first.tables().putItem(ACCOUNT, name, item("b", "y")),
                    StorageException.class);
            assertThat(gone.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aRelationNameDamagedByAHandEditIsRefusedAndNothingIsWritten(Layout layout) throws Exception {
        try (PostgresStorage first = open(layout)) {
            String name = warmTable(first);
            String base = "d_" + first.tables().describeTable(ACCOUNT, name).tableId();
            try (Connection c = databases.catalogDatabase(layout).connect();
                 java.sql.PreparedStatement s = c.prepareStatement("UPDATE sp_tables SET relation_name = ? WHERE table_name = ?")) {
                s.setString(1, "d_x\"; DROP TABLE sp_tables; --");
                s.setString(2, name);
                assertThat(s.executeUpdate()).isEqualTo(1);
            }
            StorageException damaged = catchThrowableOfType(() -> first.tables().putItem(ACCOUNT, name, item("b", "y")),
                    StorageException.class);
            assertThat(damaged).as("refused by the name check, not by SQL").hasMessageContaining("not a data relation name");
            assertThat(count(layout, base)).as("nothing written to the relation the kept definition names")
                    .isEqualTo(WARM_PUTS);
            assertThat(first.tables().listTables(ACCOUNT)).as("the catalog is intact").contains(name);
        }
    }

    /**
     * A new table (pk S) that {@code storage} has put items into past pgjdbc's prepareThreshold (5), so its
     * definition and statements are kept, and prepared at the server.
     */
    private static String warmTable(PostgresStorage storage) {
        String name = Tables.uniqueName("cv");
        storage.tables().createTable(CreateTableRequest.builder(ACCOUNT, name).partitionKey("pk", ScalarType.S).build());
        TableWaiter.awaitActive(storage.tables(), ACCOUNT, name, ACTIVE);
        for (int i = 0; i < WARM_PUTS; i++) {
            storage.tables().putItem(ACCOUNT, name, item("warm" + i, "w" + i));
        }
        return name;
    }

    private static boolean exists(Layout layout, String relation) throws Exception {
        try (Connection c = databases.dataSession(layout); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT to_regclass('\"" + relation + "\"') IS NOT NULL")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    private static long count(Layout layout, String relation) throws Exception {
        try (Connection c = databases.dataSession(layout); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM " + relation)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
