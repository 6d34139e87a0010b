package dev.stillpoint.adapters.sqlite.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.StoredItem;
import dev.stillpoint.ports.in.TableSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The SQLite adapter's table operations and snapshots against a real file database. */
class SqliteStorageTest {

    static final String ACCOUNT = "000000000001";

    static CreateTableRequest orders(String name) {
        return new CreateTableRequest(ACCOUNT, name, KeySchema.composite("pk", "sk"),
                List.of(new AttributeDefinition("pk", ScalarType.S), new AttributeDefinition("sk", ScalarType.N)),
                List.of(), List.of(), Optional.empty());
    }

    static Item item(String pk, String sk, String v) {
        return Item.of(Map.of("pk", new AttributeValue.S(pk), "sk", AttributeValue.N.of(sk), "v", new AttributeValue.S(v)));
    }

    static void awaitActive(SqliteStorage storage, String table) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Object tick = new Object();
        while (storage.tables().describeTable(ACCOUNT, table).status() != TableStatus.ACTIVE) {
            assertThat(System.nanoTime()).as("table " + table + " ACTIVE within 10 s").isLessThan(deadline);
            synchronized (tick) {
                tick.wait(5);
            }
        }
    }

    @Test
    void createPutGetSnapshotDelete() throws Exception {
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(TestDatabases.newFile("smoke"))
                .withControlPlaneDelay(Duration.ZERO))) {
            assertThat(storage.tables().createTable(orders("orders")).status()).isEqualTo(TableStatus.CREATING);
            awaitActive(storage, "orders");
            for (int i = 0; i < 25; i++) {
                storage.tables().putItem(ACCOUNT, "orders", item("p" + (i % 3), Integer.toString(-i), "v" + i));
            }
            assertThat(storage.tables().getItem(ACCOUNT, "orders",
                    RequestKey.of("pk", new AttributeValue.S("p1"), "sk", AttributeValue.N.of("-4")))).map(i -> i.get("v"))
                    .contains(new AttributeValue.S("v4"));
            storage.tables().addGlobalSecondaryIndex(ACCOUNT, "orders", CreateGsiRequest.of(
                    GlobalSecondaryIndex.creating("by-v", KeySchema.hashOnly("v"), Projection.all()),
                    new AttributeDefinition("v", ScalarType.S)));
            try (TableSnapshot snapshot = storage.snapshots().openTableSnapshot(ACCOUNT, "orders")) {
                assertThat(snapshot.keyOrdered()).isTrue();
                assertThat(snapshot.description().globalSecondaryIndexes()).hasSize(1);
                List<StoredItem> items = new ArrayList<>();
                snapshot.items().forEachRemaining(items::add);
                assertThat(items).hasSize(25);
                assertThat(items.get(0).item().get("pk")).isEqualTo(new AttributeValue.S("p0"));
            }
            assertThat(storage.snapshotPermits().inUse()).isZero();
            assertThat(storage.tables().deleteTable(ACCOUNT, "orders").status()).isEqualTo(TableStatus.DELETING);
            assertThatThrownBy(() -> storage.tables().describeTable(ACCOUNT, "orders"))
                    .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND));
        }
    }
}
