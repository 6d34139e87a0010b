package dev.stillpoint.adapters.sqlite.restore;

import static dev.stillpoint.properties.fixtures.RestoreFixtures.ACCOUNT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.adapters.sqlite.SqliteConfig;
import dev.stillpoint.adapters.sqlite.SqliteStorage;
import dev.stillpoint.adapters.sqlite.testing.TestDatabases;
import dev.stillpoint.core.TableWaiter;
import dev.stillpoint.domain.error.ErrorReason;
import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.item.Item;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.domain.table.RestoreOrigin;
import dev.stillpoint.domain.table.TableDescription;
import dev.stillpoint.domain.table.TableStatus;
import dev.stillpoint.ports.in.RestoreLoad;
import dev.stillpoint.properties.fixtures.HostileItems;
import dev.stillpoint.properties.fixtures.RestoreFixtures;
import dev.stillpoint.properties.fixtures.SqlCatalogAccess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Restore's bulk path on SQLite [B1, E4, E5]: items with hostile text and bytes come out exactly as PutItem
 * stores them (every column of the base and index relations equal), each index entry once; a load that
 * fails midway leaves no table and no relation once the restore is closed.
 */
class SqliteBulkRestoreTest {

    private static final RestoreOrigin ORIGIN = new RestoreOrigin(Optional.empty(), Instant.parse("2026-12-03T12:00:00Z"));
    private static final int ITEMS = 1200;

    // B1 [V2]: the bulk path stores exactly what PutItem stores, including its index entries, once each.
    @Test
    void b1_hostileItemsRoundTripThroughTheBulkPathAsPutItemStoresThem() throws Exception {
        Path file = TestDatabases.newFile("bulk");
        List<Item> items = HostileItems.items(ITEMS);
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO))) {
            TableDescription done;
            try (RestoreLoad load = storage.restores().begin(HostileItems.definition(ACCOUNT, "bulk"), ORIGIN)) {
                for (int from = 0; from < items.size(); from += 37) {
                    load.write(items.subList(from, Math.min(items.size(), from + 37)));
                }
                done = load.complete();
            }
            storage.tables().createTable(HostileItems.definition(ACCOUNT, "put"));
            TableDescription byPut = TableWaiter.awaitActive(storage.tables(), ACCOUNT, "put", Duration.ofSeconds(30));
            items.forEach(item -> storage.tables().putItem(ACCOUNT, "put", item));

            assertThat(done.status()).isEqualTo(TableStatus.ACTIVE);
            for (Item item : items) {
                assertThat(storage.tables().getItem(ACCOUNT, "bulk", RequestKey.of("pk", item.get("pk"), "sk", item.get("sk"))))
                        .as("item %s read back", item.get("pk")).contains(item);
            }
            for (String suffix : List.of("", "__gsi__0", "__gsi__1")) {
                assertThat(dump(file, done.tableId() + suffix)).as("relation %s: every column as PutItem stored it", suffix)
                        .isEqualTo(dump(file, byPut.tableId() + suffix));
            }
            assertThat(dump(file, done.tableId())).as("base rows").hasSize(ITEMS);
            assertThat(dump(file, done.tableId() + "__gsi__0")).as("byG entries: one per item with g")
                    .hasSize((int) HostileItems.inIndex(ITEMS, true));
            assertThat(dump(file, done.tableId() + "__gsi__1")).as("byB entries: one per item with b")
                    .hasSize((int) HostileItems.inIndex(ITEMS, false));
        }
    }

    // E5 [B1]: a load failing midway (a key written twice, refused by the base relation's primary key after
    // earlier chunks committed) leaves no table and no relation once the restore is closed.
    @Test
    void b1_aLoadFailingMidwayLeavesNoTableAndNoRelation() throws Exception {
        Path file = TestDatabases.newFile("bulk-failing");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO))) {
            RestoreLoad load = storage.restores().begin(RestoreFixtures.definition("failing"), ORIGIN);
            String id = load.table().tableId();
            load.write(RestoreFixtures.items(0, 300));
            assertThat(count(file, "SELECT count(*) FROM \"d_" + id + "\"")).as("the first chunk, committed").isEqualTo(300);
            assertThatThrownBy(() -> load.write(List.of(RestoreFixtures.item(300), RestoreFixtures.item(5))))
                    .as("a chunk holding a key written before").isInstanceOf(StorageException.class)
                    .hasMessageContaining("two items with one primary key")
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.VALIDATION);
            assertThat(count(file, "SELECT count(*) FROM \"d_" + id + "\"")).as("nothing of the failed chunk").isEqualTo(300);
            assertThatThrownBy(load::complete).as("completing a broken load").isInstanceOf(StorageException.class)
                    .hasMessageContaining("its load failed earlier");
            load.close();
            assertThatThrownBy(() -> storage.tables().describeTable(ACCOUNT, "failing"))
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
                for (String table : List.of("sp_tables", "sp_indexes", "sp_restore_records")) {
                    assertThat(SqlCatalogAccess.count(c, "SELECT count(*) FROM " + table + " WHERE table_id = ?", id))
                            .as("rows of %s for the table", table).isZero();
                }
                assertThat(SqlCatalogAccess.count(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name GLOB ?",
                        "d_" + id + "*")).as("relations of the table").isZero();
            }
        }
    }

    // B1, E5: a load opens only into its own restore's table, while it restores. Here the restore's row is
    // removed behind it before its first write (as a poller that took it for dead would) and another table
    // of the same name is created and ACTIVE: the first write is TableNotFound, and the other table gets none
    // of the restore's items.
    @Test
    void b1_aLoadNeverOpensIntoAnotherTableOfTheRestoresName() throws Exception {
        Path file = TestDatabases.newFile("bulk-renamed");
        try (SqliteStorage storage = SqliteStorage.open(SqliteConfig.file(file).withControlPlaneDelay(Duration.ZERO))) {
            RestoreLoad load = storage.restores().begin(RestoreFixtures.definition("named"), ORIGIN);
            String id = load.table().tableId();
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
                st.executeUpdate("DELETE FROM sp_restore_records WHERE table_id = '" + id + "'");
                st.executeUpdate("DELETE FROM sp_indexes WHERE table_id = '" + id + "'");
                st.executeUpdate("DELETE FROM sp_tables WHERE table_id = '" + id + "'");
            }
            storage.tables().createTable(RestoreFixtures.definition("named"));
            TableDescription other = TableWaiter.awaitActive(storage.tables(), ACCOUNT, "named", Duration.ofSeconds(30));
            assertThat(other.tableId()).as("another table of the name").isNotEqualTo(id);

            assertThatThrownBy(() -> load.write(RestoreFixtures.items(0, 5)))
                    .as("[B1] the restore's first write opens no load into the other table")
                    .isInstanceOf(StorageException.class)
                    .extracting(e -> ((StorageException) e).reason()).isEqualTo(ErrorReason.TABLE_NOT_FOUND);
            assertThat(count(file, "SELECT count(*) FROM \"d_" + other.tableId() + "\""))
                    .as("[B1] none of the restore's items in the other table").isZero();
            load.close();
        }
    }

    /** Every row of relation {@code d_<suffixedId>}, each column as hex or text, in primary-key order. */
    private static List<String> dump(Path file, String relation) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM \"d_" + relation + "\" ORDER BY 1, 2, 3"
                     + (relation.contains("__") ? ", 4" : ""))) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    Object v = rs.getObject(i);
                    row.append(i > 1 ? " | " : "").append(v instanceof byte[] b ? Arrays.toString(b) : String.valueOf(v));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    private static long count(Path file, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            return SqlCatalogAccess.count(c, sql, null);
        }
    }
}
