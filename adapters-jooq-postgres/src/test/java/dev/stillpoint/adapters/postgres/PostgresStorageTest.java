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
import dev.stillpoint.domain.table.GlobalSecondaryIndex;
import dev.stillpoint.domain.table.IndexStatus;
import dev.stillpoint.domain.table.Projection;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.TableOperations;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Table and item operations on both layouts, against a real PostgreSQL. */
class PostgresStorageTest {

    @RegisterExtension
    static final PgDatabases databases = PgDatabases.perClass("storage");

    private static PostgresStorage open(Layout layout) {
        return PostgresStorage.open(databases.undelayed(layout));
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void itemsAndIndexesRoundTrip(Layout layout) throws Exception {
        try (PostgresStorage storage = open(layout)) {
            TableOperations tables = storage.tables();
            String name = Tables.uniqueName("items");
            TableDescription created = Tables.createActive(tables, Tables.withIndexes(name));
            long start = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                tables.putItem(ACCOUNT, name, Tables.item("p" + (i % 7), i, "g" + (i % 3), "l" + i));
            }
            System.out.printf("%s: 200 puts in %d ms%n", layout, (System.nanoTime() - start) / 1_000_000);
            RequestKey k = RequestKey.of("pk", AttributeValue.s("p3"), "sk", AttributeValue.n("10"));
            assertThat(tables.getItem(ACCOUNT, name, k)).contains(Tables.item("p3", 10, "g1", "l10"));
            tables.putItem(ACCOUNT, name, Tables.item("p3", 10, "g2", "changed"));
            assertThat(tables.getItem(ACCOUNT, name, k).orElseThrow().get("l")).isEqualTo(AttributeValue.s("changed"));
            assertThat(count(layout, "d_" + created.tableId())).isEqualTo(200);
            assertThat(count(layout, "d_" + created.tableId() + "__gsi__0")).isEqualTo(200);
            assertThat(count(layout, "d_" + created.tableId() + "__lsi__1")).isEqualTo(200);
            tables.deleteItem(ACCOUNT, name, k);
            assertThat(tables.getItem(ACCOUNT, name, k)).isEmpty();
            assertThat(count(layout, "d_" + created.tableId() + "__gsi__0")).isEqualTo(199);

            TableDescription updated = tables.addGlobalSecondaryIndex(ACCOUNT, name, CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating("by_l2", KeySchema.hashOnly("l"), Projection.keysOnly()),
                    new AttributeDefinition("l", ScalarType.S)));
            assertThat(updated.gsi("by_l2").orElseThrow().status()).isEqualTo(IndexStatus.ACTIVE);
            assertThat(count(layout, "d_" + created.tableId() + "__gsi__2")).isEqualTo(199);
            assertThat(tables.listTables(ACCOUNT)).contains(name);

            TableDescription deleted = tables.deleteTable(ACCOUNT, name);
            assertThat(deleted.status()).isEqualTo(TableStatus.DELETING);
            assertThat(Tables.exists(tables, name)).isFalse();
            assertThat(relations(layout, created.tableId())).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void refusals(Layout layout) {
        try (PostgresStorage storage = open(layout)) {
            TableOperations tables = storage.tables();
            String name = Tables.uniqueName("refuse");
            Tables.createActive(tables, Tables.withIndexes(name));
            StorageException again = catchThrowableOfType(StorageException.class,
                    () -> tables.createTable(Tables.withIndexes(name)));
            assertThat(again.reason()).isEqualTo(ErrorReason.RESOURCE_IN_USE);
            StorageException wrongType = catchThrowableOfType(StorageException.class, () -> tables.putItem(ACCOUNT, name,
                    Item.of(Map.of("pk", AttributeValue.s("a"), "sk", AttributeValue.n("1"), "g", AttributeValue.n("5")))));
            assertThat(wrongType.reason()).isEqualTo(ErrorReason.VALIDATION);
            StorageException missing = catchThrowableOfType(StorageException.class,
                    () -> tables.getItem(ACCOUNT, "nope_" + name, RequestKey.of("pk", AttributeValue.s("a"))));
            assertThat(missing.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            StorageException badGsi = catchThrowableOfType(StorageException.class, () -> tables.addGlobalSecondaryIndex(
                    ACCOUNT, name, CreateGsiRequest.of(GlobalSecondaryIndex.creating("x", KeySchema.hashOnly("q"),
                            Projection.all()), new AttributeDefinition("zz", ScalarType.S))));
            assertThat(badGsi.reason()).isEqualTo(ErrorReason.VALIDATION);
            tables.deleteTable(ACCOUNT, name);
        }
    }

    private static long count(Layout layout, String relation) throws Exception {
        try (Connection c = databases.dataSession(layout); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM " + relation)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long relations(Layout layout, String tableId) throws Exception {
        try (Connection c = databases.dataSession(layout); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_class WHERE relname LIKE 'd\\_" + tableId + "%'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
